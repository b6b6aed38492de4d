//! Which folders a command reads: the ones named; of a repository's root,
//! only its own prompt and skill folders (hidden, so passed by otherwise),
//! and those only when they are real folders inside it; of a skill's
//! folder, the skill alone.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::escape;
use crate::files::{FileProblem, PromptDir, PromptDirOptions};
use crate::server::{Server, Service};

/// The hidden folders of a repository that hold prompt files: Claude
/// Code's commands and VS Code's prompt files.
const PROMPT_FOLDERS: [&str; 2] = [".claude/commands", ".github/prompts"];

/// The hidden folder of a repository that holds Agent Skills.
const SKILL_FOLDER: &str = ".claude/skills";

/// How many names each of those folders is below the repository's root,
/// none of which may become a link while it is served.
const PINNED_NAMES: u8 = 2;

/// How many folders below a root skills are looked for, as the server
/// looks for them.
const SKILL_DEPTH: usize = 6;

/// What makes a folder a repository's root: Git's (a folder, or a file in
/// a worktree or a submodule), or the folders the tools keep prompts in.
/// Its own Markdown (`README.md`, `CHANGELOG.md`, `docs/`) is no prompt.
const REPOSITORY_MARKS: [&str; 3] = [".git", ".claude", ".github"];

/// The file that makes a folder an Agent Skill, none of whose files is a
/// prompt.
const SKILL_FILE: &str = "SKILL.md";

/// Why a repository's prompt folder that is a link is not read.
const LINKED: &str = "a symbolic link, not followed: a repository's `.claude/commands`, \
                      `.github/prompts` and `.claude/skills` are read only as real folders \
                      inside it (a cloned repository could link them to any folder of yours); \
                      name the folder it leads to, to serve that";

/// The folders to read, found from the ones named.
#[derive(Debug, Default)]
pub(super) struct Folders {
    /// Folders of prompt files: each plain folder named, and each
    /// repository's own.
    pub(super) prompts: Vec<PathBuf>,
    /// Roots holding Agent Skills.
    pub(super) skills: Vec<PathBuf>,
    /// Hidden folders directly in a named folder that nothing is read
    /// from (`.git`, `.vscode`, ...), for the start message.
    pub(super) skipped: Vec<PathBuf>,
    /// The repositories' roots named, of which only their own prompt and
    /// skill folders are read.
    repositories: Vec<PathBuf>,
    /// A repository's root that gives nothing to read.
    problems: Vec<FileProblem>,
    /// A repository's prompt folder that is not read: a link.
    warnings: Vec<FileProblem>,
    /// The repositories' own folders (`.claude/commands`, ...), found to be
    /// real folders, whose last names are opened without following links
    /// at every reload: one that becomes a link is not followed.
    pinned: Vec<PathBuf>,
    /// A registry named as `URL#LABEL`: its URL and label.
    #[cfg(feature = "registry")]
    registry: Option<(String, String)>,
    /// Whether they are served (not read once): a registry's label that
    /// points at nothing yet is then a warning, not an error.
    #[cfg(feature = "registry")]
    serving: bool,
}

/// Whether `dir` names a registry (`URL#LABEL`, feature `registry`).
pub(super) fn is_registry(dir: &Path) -> bool {
    #[cfg(feature = "registry")]
    return dir.to_str().is_some_and(crate::registry::Location::is_url);
    #[cfg(not(feature = "registry"))]
    {
        let _ = dir;
        false
    }
}

/// A DIR as it may be shown: a registry's password left out.
pub(super) fn shown(dir: &Path) -> String {
    let text = dir.display().to_string();
    #[cfg(feature = "registry")]
    if is_registry(dir) {
        return crate::registry::without_password(&text);
    }
    text
}

/// Fails for a DIR that is neither a folder nor (feature `registry`) a
/// registry's `URL#LABEL`, or for a second registry: one catalog serves one.
pub(super) fn check_dirs(dirs: &[PathBuf]) -> std::io::Result<()> {
    #[cfg(feature = "registry")]
    let mut registries = 0;
    for dir in dirs {
        #[cfg(feature = "registry")]
        if let Some(source) = dir.to_str().filter(|_| is_registry(dir)) {
            let (location, _) = crate::registry::split_source(source).map_err(|err| {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, err.to_string())
            })?;
            // Reading a registry never makes one (a typo's file).
            if let crate::registry::Location::Sqlite(path) = &location {
                if !Path::new(path).is_file() {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        format!("there is no registry at {location}: `publish` makes one"),
                    ));
                }
            }
            registries += 1;
            if registries > 1 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "name one registry: a catalog serves one",
                ));
            }
            continue;
        }
        if !dir.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("`{}` is not a folder", dir.display()),
            ));
        }
    }
    Ok(())
}

impl Folders {
    /// The folders `dirs` stand for.
    pub(super) fn of(dirs: &[PathBuf]) -> Self {
        let mut folders = Self::default();
        for dir in dirs {
            #[cfg(feature = "registry")]
            if let Some(source) = dir.to_str().filter(|_| is_registry(dir)) {
                // Checked by `check_dirs`; a bad one reads nothing here.
                if let Some((url, label)) = source.rsplit_once('#') {
                    folders.registry = Some((url.to_owned(), label.to_owned()));
                } else {
                    let label = crate::registry::DEFAULT_LABEL.to_owned();
                    folders.registry = Some((source.to_owned(), label));
                }
                continue;
            }
            // A skill's folder first: a skill published as a repository of
            // its own is a skill.
            let used = if is_skill(dir) {
                folders.skills.push(dir.clone());
                Vec::new()
            } else if let Some(mark) = repository_mark(dir) {
                folders.repository(dir, mark)
            } else {
                folders.prompts.push(dir.clone());
                if holds_skills(dir, SKILL_DEPTH, &mut 10_000) {
                    folders.skills.push(dir.clone());
                }
                Vec::new()
            };
            folders.skipped.extend(hidden_folders(dir).filter(|hidden| {
                let name = hidden.file_name().and_then(|n| n.to_str()).unwrap_or("");
                !used.contains(&name)
            }));
        }
        folders
    }

    /// Reads the repository's root `dir` (which holds `mark`): its prompt
    /// and skill folders that are real folders inside it, each link among
    /// them a warning, none at all a problem. The hidden folders it used.
    fn repository(&mut self, dir: &Path, mark: &str) -> Vec<&'static str> {
        self.repositories.push(dir.to_owned());
        let mut used = Vec::new();
        let folders = PROMPT_FOLDERS.map(|inside| (inside, false));
        for (inside, skills) in folders.into_iter().chain([(SKILL_FOLDER, true)]) {
            match inside_folder(dir, inside) {
                Ok(None) => continue,
                Ok(Some(folder)) if skills => {
                    if holds_skills(&folder, SKILL_DEPTH, &mut 10_000) {
                        self.pinned.push(folder.clone());
                        self.skills.push(folder);
                    }
                }
                Ok(Some(folder)) => {
                    self.pinned.push(folder.clone());
                    self.prompts.push(folder);
                }
                // `.claude` linked is one warning, not one a folder in it.
                Err(link) if self.warnings.iter().any(|w| w.path == link) => {}
                Err(link) => self.warnings.push(FileProblem {
                    path: link,
                    line: None,
                    message: LINKED.to_owned(),
                }),
            }
            used.push(first_part(inside));
        }
        if used.is_empty() {
            self.problems.push(FileProblem {
                path: dir.to_owned(),
                line: None,
                message: format!(
                    "a repository's root (it holds `{mark}`), of which only `.claude/commands`, \
                     `.github/prompts` and `.claude/skills` are read, and it has none of them: \
                     name the folders that hold its prompts instead (as `{}`)",
                    dir.join("prompts").display()
                ),
            });
        }
        used
    }

    /// The same folders, to be served: what they do not hold yet may come.
    #[cfg(feature = "registry")]
    pub(super) fn serving(mut self) -> Self {
        self.serving = true;
        self
    }

    /// Each folder named that gives nothing to read (a repository's root
    /// with none of its prompt folders), a problem as a file not served is.
    pub(super) fn problems(&self) -> &[FileProblem] {
        &self.problems
    }

    /// Each folder not read though it is there (a repository's prompt
    /// folder that is a link), a warning.
    pub(super) fn warnings(&self) -> &[FileProblem] {
        &self.warnings
    }

    /// Prints the problems and warnings on stderr, each on a line of its
    /// own, before `program` serves or renders (`check` reports them with
    /// the files').
    pub(super) fn tell(&self, program: &str) {
        for problem in &self.problems {
            eprintln!("{program}: {}", escape::line(&problem.to_string()));
        }
        for warning in &self.warnings {
            eprintln!("{program}: warning: {}", escape::line(&warning.to_string()));
        }
    }

    /// What the start message says of the folders: those served, and the
    /// hidden ones skipped.
    pub(super) fn describe(&self) -> String {
        let shown = |paths: &[PathBuf]| {
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut said = if self.prompts.is_empty() {
            "no prompt folders".to_owned()
        } else {
            format!("prompt files from {}", shown(&self.prompts))
        };
        if !self.skills.is_empty() {
            let _ = write!(said, "; skills from {}", shown(&self.skills));
        }
        if !self.repositories.is_empty() {
            let _ = write!(
                said,
                "; {}: a repository's root, only its .claude/commands, .github/prompts and .claude/skills read",
                shown(&self.repositories)
            );
        }
        if !self.skipped.is_empty() {
            let _ = write!(said, "; skipped, hidden: {}", shown(&self.skipped));
        }
        #[cfg(feature = "registry")]
        if let Some((url, label)) = &self.registry {
            let url = crate::registry::Location::parse(url)
                .map_or_else(|_| url.clone(), |l| l.to_string());
            let _ = write!(said, "; the registry {url}, label {label}");
        }
        said
    }
}

/// `server`'s catalog with what `folders` hold, as `check` and `render`
/// read it: the service, and the folders of prompt files (each watched
/// while it lives).
pub(super) fn load(
    mut server: Server,
    folders: &Folders,
) -> std::io::Result<(Service, Vec<PromptDir>)> {
    #[cfg(feature = "registry")]
    if let Some((url, label)) = &folders.registry {
        server = server.registry(url.clone(), label.clone());
    }
    for root in &folders.skills {
        server = if folders.pinned.contains(root) {
            server.skills_dir_pinned(root.clone(), PINNED_NAMES)
        } else {
            server.skills_dir(root)
        };
    }
    let (service, prompts) = server
        .build_live()
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    #[cfg(feature = "registry")]
    if let (Some((url, label)), Some(0)) = (&folders.registry, service.registry_label_size()) {
        let url =
            crate::registry::Location::parse(url).map_or_else(|_| url.clone(), |l| l.to_string());
        let empty = format!(
            "label `{label}` points at no prompt in the registry {url} \
             (`publish --label {label}` puts prompts there)"
        );
        // A server waits for the label to be filled (a replica started
        // before the first publish); a command that reads it once fails.
        if !folders.serving {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, empty));
        }
        tracing::warn!(
            "{}: serving none of its prompts until it does",
            escape::line(&empty)
        );
    }
    let dirs = folders
        .prompts
        .iter()
        .map(|dir| {
            let options = PromptDirOptions::new();
            let options = if folders.pinned.contains(dir) {
                options.pinned(PINNED_NAMES)
            } else {
                options
            };
            PromptDir::watch_with(dir, &prompts, options)
        })
        .collect::<std::io::Result<Vec<_>>>()?;
    Ok((service, dirs))
}

/// What makes `dir` a repository's root, if it is one: the first of
/// [`REPOSITORY_MARKS`] it holds, of whatever kind.
fn repository_mark(dir: &Path) -> Option<&'static str> {
    REPOSITORY_MARKS
        .into_iter()
        .find(|mark| std::fs::symlink_metadata(dir.join(mark)).is_ok())
}

/// Whether `dir` is an Agent Skill's folder: it holds a `SKILL.md` that is
/// not a folder (a link counts), as the prompt walk and the skills' search
/// decide.
fn is_skill(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(SKILL_FILE)).is_ok_and(|meta| !meta.is_dir())
}

/// The folder `inside` (`.claude/commands`) of the repository's root
/// `dir`: `Ok(None)` when there is none; `Err` with the link when it, or
/// the folder it is in (`.claude`), is a symbolic link, or it resolves
/// outside `dir`. Looked at without following links: a cloned
/// repository's `.claude/commands` linked to `~/.aws` would serve the
/// files there.
fn inside_folder(dir: &Path, inside: &str) -> Result<Option<PathBuf>, PathBuf> {
    let mut folder = dir.to_owned();
    for part in inside.split('/') {
        folder.push(part);
        match std::fs::symlink_metadata(&folder) {
            Ok(meta) if meta.file_type().is_symlink() => return Err(folder),
            Ok(meta) if meta.is_dir() => {}
            _ => return Ok(None),
        }
    }
    // No link on the way, so inside; unless a platform's other kinds of
    // links (a Windows junction) say otherwise.
    match (std::fs::canonicalize(dir), std::fs::canonicalize(&folder)) {
        (Ok(root), Ok(real)) if !real.starts_with(&root) => Err(folder),
        _ => Ok(Some(folder)),
    }
}

/// `.claude` of `.claude/commands`.
fn first_part(path: &str) -> &str {
    path.split('/').next().unwrap_or(path)
}

/// The hidden folders directly in `dir`, in name order.
fn hidden_folders(dir: &Path) -> impl Iterator<Item = PathBuf> {
    let mut hidden: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with('.'))
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| entry.path())
        .collect();
    hidden.sort();
    hidden.into_iter()
}

/// Whether a folder holding a `SKILL.md` lies in `dir` (itself included),
/// down to `depth` folders, hidden folders and links left out as the
/// server leaves them, looking into at most `budget` folders: only then
/// does the server declare skills.
fn holds_skills(dir: &Path, depth: usize, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if dir.join("SKILL.md").is_file() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    depth > 0
        && entries.flatten().any(|entry| {
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            let folder = entry.file_type().is_ok_and(|t| t.is_dir());
            !hidden && folder && holds_skills(&entry.path(), depth - 1, budget)
        })
}
