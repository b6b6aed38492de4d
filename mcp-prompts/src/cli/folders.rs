//! Which folders a command reads: the ones named, and in each a
//! repository's own prompt and skill folders, which are hidden and so
//! passed by otherwise.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::files::PromptDir;
use crate::server::{Server, Service};

/// The hidden folders of a repository that hold prompt files: Claude
/// Code's commands and VS Code's prompt files.
const PROMPT_FOLDERS: [&str; 2] = [".claude/commands", ".github/prompts"];

/// The hidden folder of a repository that holds Agent Skills.
const SKILL_FOLDER: &str = ".claude/skills";

/// How many folders below a root skills are looked for, as the server
/// looks for them.
const SKILL_DEPTH: usize = 6;

/// The folders to read, found from the ones named.
#[derive(Debug, Default)]
pub(super) struct Folders {
    /// Folders of prompt files, each named folder first.
    pub(super) prompts: Vec<PathBuf>,
    /// Roots holding Agent Skills.
    pub(super) skills: Vec<PathBuf>,
    /// Hidden folders directly in a named folder that nothing is read
    /// from (`.git`, `.vscode`, ...), for the start message.
    pub(super) skipped: Vec<PathBuf>,
}

impl Folders {
    /// The folders `dirs` stand for.
    pub(super) fn of(dirs: &[PathBuf]) -> Self {
        let mut folders = Self::default();
        for dir in dirs {
            folders.prompts.push(dir.clone());
            let mut used = Vec::new();
            for inside in PROMPT_FOLDERS {
                let folder = dir.join(inside);
                if folder.is_dir() {
                    folders.prompts.push(folder);
                    used.push(first_part(inside));
                }
            }
            // The folder's own skills, and a repository's `.claude/skills`.
            if holds_skills(dir, SKILL_DEPTH, &mut 10_000) {
                folders.skills.push(dir.clone());
            }
            let skills = dir.join(SKILL_FOLDER);
            if holds_skills(&skills, SKILL_DEPTH, &mut 10_000) {
                folders.skills.push(skills);
                used.push(first_part(SKILL_FOLDER));
            }
            folders.skipped.extend(hidden_folders(dir).filter(|hidden| {
                let name = hidden.file_name().and_then(|n| n.to_str()).unwrap_or("");
                !used.contains(&name)
            }));
        }
        folders
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
            "no folders".to_owned()
        } else {
            format!("prompt files from {}", shown(&self.prompts))
        };
        if !self.skills.is_empty() {
            let _ = write!(said, "; skills from {}", shown(&self.skills));
        }
        if !self.skipped.is_empty() {
            let _ = write!(said, "; skipped, hidden: {}", shown(&self.skipped));
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
    for root in &folders.skills {
        server = server.skills_dir(root);
    }
    let (service, prompts) = server
        .build_live()
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    let dirs = folders
        .prompts
        .iter()
        .map(|dir| PromptDir::watch(dir, &prompts))
        .collect::<std::io::Result<Vec<_>>>()?;
    Ok((service, dirs))
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
