//! Prompt files: a directory of `*.md` files, one prompt each, served in a
//! live catalog and kept in step with the directory as files are added,
//! edited, renamed and deleted.

mod body;
mod command;
mod conventions;
mod dotprompt;
mod front_matter;
mod kind;
mod matter;
mod read;
pub(crate) mod skills;
mod vscode;
mod watch;
mod yaml;

use std::collections::HashMap;
use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::catalog::Prompts;
use crate::dynamic::DynamicPrompt;
use crate::error::Escaped;
use crate::protocol::is_valid_name;
use crate::sync::lock;
use dotprompt::Partials;
use front_matter::{Broken, IconFile, is_uri, parse_file};
use kind::{FileKind, prompt_name};
use matter::Matter;
use mcp_prompts_template::rules;
pub use read::{DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES};
use read::{ReadLimits, ServedDir};
use watch::{Heed, Watch};

/// How long after a change in the directory it is read again: an editor's
/// save is often several events (write, rename, chmod).
const SETTLE: Duration = Duration::from_millis(100);

/// A prompt file that is not served, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileProblem {
    /// The file.
    pub path: PathBuf,
    /// The line the problem is on (from 1), when it is on one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

/// A directory of prompt files served through a live catalog
/// ([`Server::build_live`](crate::Server::build_live)) while this value
/// lives: watched for changes, and its prompts removed when it is dropped.
///
/// Each `*.md` and `*.prompt` file is one prompt. A `name.prompt.md` file
/// is a VS Code prompt file (`${input:name}` arguments); a `name.md` that
/// does not start with `+++` is a Claude Code command (YAML front matter
/// or none, `$ARGUMENTS`, `$1`..`$9`); both are served as `name`, their
/// body one user message. A `name.prompt` file is dotprompt (`input.schema`
/// in Picoschema, a Handlebars template with `{{role}}`, `{{#if}}`,
/// `{{#each}}` and `{{> partial}}`), and `_name.prompt` a partial it
/// includes, never served. Files in subfolders are served too, named by their path
/// with dots (`git/commit.md` is `git.commit`), four folders deep at most;
/// hidden folders, a folder holding a `SKILL.md` (an Agent Skill; the
/// directory itself too, which then serves no prompts) and links to
/// folders are not read. Ours: TOML front matter between `+++` lines
/// (`name`, `title`, `description`, `scopes`, `icon` (an `https://` URL,
/// or an image file's path relative to the directory, embedded), `tags`,
/// `as_tool`, a `[meta]` table, and `[[arguments]]` with `name`,
/// `title`, `description`, `required`, `default`, `choices`), then the
/// template body in the syntax of `#[prompt(template = ...)]`. The prompt
/// is named after the file's stem unless the front matter says `name`.
///
/// A file that cannot be served (bad front matter, an unknown placeholder,
/// a name already taken) is left out and reported as a `tracing` warning
/// with its path and line; the other prompts are unaffected, and fixing
/// the file brings its prompt back. A file that cannot be read for a
/// moment (held by an editor) keeps serving what it last held.
///
/// Where the file system sends no change events (some network and
/// container mounts), call [`reload`](Self::reload) now and then.
///
/// ```no_run
/// use mcp_prompts::{PromptDir, Server};
///
/// # async fn run() -> std::io::Result<()> {
/// let (service, prompts) = Server::new("team-prompts", "1.0")
///     .build_live()
///     .map_err(std::io::Error::other)?;
/// let _dir = PromptDir::watch("prompts", &prompts)?;
/// service.serve_stdio().await
/// # }
/// ```
#[must_use = "the directory is served only while its PromptDir lives"]
pub struct PromptDir {
    loader: Arc<Loader>,
}

/// How a [`PromptDir`] reads its directory; the defaults suit most.
///
/// ```no_run
/// use mcp_prompts::{PromptDir, PromptDirOptions, Server};
///
/// # fn run() -> std::io::Result<()> {
/// let (service, prompts) = Server::new("team-prompts", "1.0")
///     .build_live()
///     .map_err(std::io::Error::other)?;
/// let options = PromptDirOptions::new().max_file_bytes(256 * 1024);
/// let _dir = PromptDir::watch_with("prompts", &prompts, options)?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct PromptDirOptions(ReadLimits);

impl PromptDirOptions {
    /// The defaults: files of at most 1 MiB, at most 1,000 of them, no
    /// symbolic link leading outside the directory.
    pub fn new() -> Self {
        Self::default()
    }

    /// The largest file served (default [`DEFAULT_MAX_FILE_BYTES`], 1 MiB);
    /// a larger one is reported, not read.
    pub fn max_file_bytes(mut self, limit: u64) -> Self {
        self.0.max_file_bytes = limit;
        self
    }

    /// Reads the directory at every reload with the last `names` names of
    /// its path opened one at a time, none of them a link: for a folder the
    /// CLI found real at start (a repository's `.claude/commands`, 2),
    /// which must not lead elsewhere once it becomes a link.
    #[cfg(feature = "cli")]
    pub(crate) fn pinned(mut self, names: u8) -> Self {
        self.0.pinned_names = names;
        self
    }

    /// The most files served (default [`DEFAULT_MAX_FILES`]); past it, the
    /// first in name order are served and the rest reported.
    pub fn max_files(mut self, limit: usize) -> Self {
        self.0.max_files = limit;
        self
    }

    /// Whether a symbolic link in the directory may lead outside it
    /// (default: no; such a file is reported and not served). Links that
    /// stay inside are always followed.
    pub fn links_outside(mut self, allowed: bool) -> Self {
        self.0.links_outside = allowed;
        self
    }
}

/// Reads the directory, one reload at a time, and keeps what it read.
struct Loader {
    dir: PathBuf,
    access: ReadLimits,
    /// Held for a whole reload, I/O included, so that two reloads never
    /// interleave; nothing else waits on it.
    reloading: Mutex<()>,
    /// Held only to look at or apply what was read, never across I/O.
    state: Mutex<DirState>,
    /// The watch on the folders read, set once it has started.
    watch: std::sync::OnceLock<Watch>,
}

/// What the directory held when last read.
struct DirState {
    prompts: Prompts,
    /// Each file's text and what it gave, so that an unchanged file keeps
    /// its prompt (and the catalog does not change).
    files: HashMap<PathBuf, (FileText, Result<Loaded, Broken>)>,
    /// The dotprompt partials last read: when one changes, every dotprompt
    /// file is read again.
    partials: Partials,
    /// The prompts this directory put in the catalog.
    served: Vec<DynamicPrompt>,
    problems: Vec<FileProblem>,
    warnings: Vec<FileProblem>,
}

/// What a file gave: its prompt (none for a partial), and warnings for its
/// author about a prompt served all the same.
#[derive(Clone)]
struct Loaded {
    prompt: Option<DynamicPrompt>,
    warnings: Vec<Broken>,
}

impl PromptDir {
    /// Serves the prompt files in `dir` through `prompts`, and keeps them
    /// in step with the directory: a change is served and announced
    /// within a fraction of a second.
    pub fn watch(dir: impl Into<PathBuf>, prompts: &Prompts) -> std::io::Result<Self> {
        Self::watch_with(dir, prompts, PromptDirOptions::default())
    }

    /// Like [`watch`](Self::watch), reading the directory as `options`
    /// say.
    pub fn watch_with(
        dir: impl Into<PathBuf>,
        prompts: &Prompts,
        options: PromptDirOptions,
    ) -> std::io::Result<Self> {
        let dir = dir.into();
        if !dir.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("prompt directory `{}` is not a directory", dir.display()),
            ));
        }
        let loader = Arc::new(Loader {
            dir: dir.clone(),
            access: options.0,
            reloading: Mutex::new(()),
            state: Mutex::new(DirState {
                prompts: prompts.clone(),
                files: HashMap::new(),
                partials: Partials::default(),
                served: Vec::new(),
                problems: Vec::new(),
                warnings: Vec::new(),
            }),
            watch: std::sync::OnceLock::new(),
        });
        let (tx, rx) = std_mpsc::channel::<()>();
        let watch = Watch::start(&dir, tx)?;
        let _ = loader.watch.set(watch);
        // Read after watching starts, so that no change falls in between.
        loader.read_and_serve(false);
        let weak = Arc::downgrade(&loader);
        // Ends when the watch (and with it every sender) is dropped.
        std::thread::spawn(move || {
            while rx.recv().is_ok() {
                std::thread::sleep(SETTLE);
                while rx.try_recv().is_ok() {}
                let Some(loader) = weak.upgrade() else { break };
                loader.reload();
            }
        });
        tracing::info!(dir = %Escaped::new(&dir.to_string_lossy()), "watching prompt files");
        Ok(Self { loader })
    }

    /// Reads the directory again now, as a change event would.
    pub fn reload(&self) {
        self.loader.reload();
    }

    /// The files not served now, and why.
    pub fn problems(&self) -> Vec<FileProblem> {
        lock(&self.loader.state).problems.clone()
    }

    /// What is worth telling the authors of files served all the same: a
    /// `{{name}}` in a Claude Code command (served as written), a
    /// `{{role "system"}}` in a dotprompt file (a user message in MCP).
    pub fn warnings(&self) -> Vec<FileProblem> {
        lock(&self.loader.state).warnings.clone()
    }

    /// The names of the prompts served from the directory now.
    pub fn served(&self) -> Vec<String> {
        lock(&self.loader.state)
            .served
            .iter()
            .map(|p| p.name().to_owned())
            .collect()
    }
}

impl Drop for PromptDir {
    fn drop(&mut self) {
        let mut state = lock(&self.loader.state);
        let served = std::mem::take(&mut state.served);
        state.prompts.sync_group(&served, Vec::new());
    }
}

impl fmt::Debug for PromptDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = lock(&self.loader.state);
        f.debug_struct("PromptDir")
            .field("dir", &self.loader.dir)
            .field("served", &state.served)
            .field("problems", &state.problems)
            .finish_non_exhaustive()
    }
}

/// What one reload read: each file's text, or why it could not be read.
struct Read {
    files: Vec<(PathBuf, std::io::Result<FileText>)>,
    /// Files past the limit, not read.
    left_out: usize,
    /// Subfolders that could not be read, and why.
    unreadable: Vec<(PathBuf, std::io::Error)>,
    /// Whether the directory itself is an Agent Skill's folder, which
    /// serves no prompt file.
    is_skill: bool,
}

/// A prompt file as read: its text, and the icon file it names, read
/// beside it (a new icon is a change of the prompt); and its front
/// matter, read once, until its prompt is made.
#[derive(Default)]
struct FileText {
    text: String,
    icon: Option<IconFile>,
    matter: Matter,
}

/// The same file: the same text and icon (the front matter follows from
/// the text).
impl PartialEq for FileText {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.icon == other.icon
    }
}

impl Loader {
    /// Reads the directory again and serves what it now holds.
    fn reload(&self) {
        self.read_and_serve(true);
    }

    /// Reads the directory and serves what it holds; `again` for a read
    /// after the first, when a folder new to the watch may have gained
    /// files between the walk and its watch (then it is read once more).
    fn read_and_serve(&self, again: bool) {
        let _one_at_a_time = lock(&self.reloading);
        tracing::debug!(dir = %Escaped::new(&self.dir.to_string_lossy()), "reading the prompt folder");
        match self.read(again) {
            Ok(read) => lock(&self.state).apply(read, &self.dir, self.access.max_files),
            Err(err) => {
                tracing::warn!(
                    dir = %Escaped::new(&self.dir.to_string_lossy()),
                    error = %Escaped::new(&err.to_string()),
                    "cannot read the prompt directory"
                );
            }
        }
    }

    /// Every prompt file's text, read without any lock held.
    fn read(&self, again: bool) -> std::io::Result<Read> {
        let dir = ServedDir::open(&self.dir, self.access)?;
        let listing = dir.list(is_prompt_file)?;
        if let Some(watch) = self.watch.get() {
            let folder = |f: &String| self.dir.join(f.trim_end_matches('/'));
            let read = listing
                .folders
                .iter()
                .map(|f| (folder(f), Heed::Everything));
            let skills = listing.skills.iter().map(|f| (folder(f), Heed::SkillFile));
            let folders: Vec<(PathBuf, Heed)> = read.chain(skills).collect();
            watch.follow(&folders, again);
        }
        let unreadable = listing
            .unreadable
            .into_iter()
            .map(|(folder, err)| (self.dir.join(folder.trim_end_matches('/')), err))
            .collect();
        let files = listing
            .names
            .into_iter()
            .map(|name| {
                let path = self.dir.join(&name);
                let read = dir.read(&name).and_then(|text| {
                    let kind = FileKind::of(&name, &text);
                    let matter = Matter::read(kind, &text, &path.display().to_string());
                    let icon = match matter.icon().filter(|icon| !is_uri(icon)) {
                        Some(icon) => Some(read_icon(&dir, icon.to_owned())?),
                        None => None,
                    };
                    Ok(FileText { text, icon, matter })
                });
                (path, read)
            })
            .collect();
        Ok(Read {
            files,
            left_out: listing.left_out,
            unreadable,
            is_skill: listing.skills.iter().any(String::is_empty),
        })
    }
}

impl DirState {
    /// Serves what a reload read.
    /// Reads again each file whose text (or whose partials) changed since
    /// the last reload; an unchanged file keeps what it gave.
    fn read_files(&mut self, read: Vec<(PathBuf, std::io::Result<FileText>)>, dir: &Path) {
        let relative = |path: &Path| {
            let relative = path.strip_prefix(dir).unwrap_or(path);
            relative.to_string_lossy().replace('\\', "/")
        };
        let texts: Vec<(String, &str)> = read
            .iter()
            .filter_map(|(path, text)| Some((relative(path), text.as_ref().ok()?.text.as_str())))
            .collect();
        let partials = Partials::read(texts.iter().map(|(path, text)| (path.as_str(), *text)));
        // A partial changed: every dotprompt file may render otherwise.
        let partials_changed = !partials.same_as(&self.partials);
        self.partials = partials;
        let mut files = HashMap::with_capacity(read.len());
        for (path, text) in read {
            let mut text = match text {
                Ok(text) => text,
                // Gone since it was listed.
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                Err(err) => {
                    // Held by another program for a moment: what it held
                    // before stays. One that may not be served: reported.
                    let kept = self
                        .files
                        .remove(&path)
                        .filter(|_| err.kind() != std::io::ErrorKind::InvalidData);
                    let entry = kept.unwrap_or_else(|| {
                        let message = format!("cannot read the file: {err}");
                        (
                            FileText::default(),
                            Err(Broken {
                                line: None,
                                message,
                            }),
                        )
                    });
                    files.insert(path, entry);
                    continue;
                }
            };
            let relative = relative(&path);
            let is_dotprompt = matches!(
                FileKind::of(&relative, &text.text),
                FileKind::Dotprompt | FileKind::Partial
            );
            let read = match self.files.remove(&path) {
                Some((old, read)) if old == text && !(partials_changed && is_dotprompt) => read,
                _ => read_prompt(
                    &path,
                    &relative,
                    (&text.text, std::mem::take(&mut text.matter)),
                    text.icon.as_ref(),
                    &self.partials,
                ),
            };
            files.insert(path, (text, read));
        }
        self.files = files;
    }

    fn apply(&mut self, read: Read, dir: &Path, max_files: usize) {
        self.read_files(read.files, dir);

        // Files in name order, so that of two with the same prompt name
        // the same one is served every time.
        let mut paths: Vec<&PathBuf> = self.files.keys().collect();
        paths.sort();
        let mut problems = Vec::new();
        let mut warnings = Vec::new();
        let mut candidates: Vec<(&PathBuf, DynamicPrompt)> = Vec::new();
        for path in paths {
            match &self.files[path].1 {
                Ok(Loaded { prompt: None, .. }) => {}
                Ok(Loaded {
                    prompt: Some(prompt),
                    warnings: notes,
                }) => {
                    for note in notes {
                        warnings.push(problem(path, note.line, note.message.clone()));
                    }
                    if let Some((first, _)) =
                        candidates.iter().find(|(_, p)| p.name() == prompt.name())
                    {
                        problems.push(problem(
                            path,
                            None,
                            format!(
                                "prompt name `{}` is already taken by {}",
                                prompt.name(),
                                first.display()
                            ),
                        ));
                    } else {
                        candidates.push((path, prompt.clone()));
                    }
                }
                Err(broken) => problems.push(problem(path, broken.line, broken.message.clone())),
            }
        }
        let wanted: Vec<DynamicPrompt> = candidates.iter().map(|(_, p)| p.clone()).collect();
        let (served, taken) = self.prompts.sync_group(&self.served, wanted);
        for (prompt, holder) in taken {
            if let Some((path, _)) = candidates.iter().find(|(_, p)| p.same_as(&prompt)) {
                problems.push(problem(
                    path,
                    None,
                    format!(
                        "prompt name `{}` is already taken by {}",
                        prompt.name(),
                        Escaped::new(&holder)
                    ),
                ));
            }
        }
        self.served = served;
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        if read.left_out > 0 {
            problems.push(problem(
                dir,
                None,
                format!(
                    "{} prompt files past the limit of {max_files} are not served",
                    read.left_out
                ),
            ));
        }
        for problem in &problems {
            if !self.problems.contains(problem) {
                tracing::warn!(
                    "prompt file not served: {}",
                    Escaped::new(&problem.to_string())
                );
            }
        }
        for (folder, err) in &read.unreadable {
            warnings.push(problem(
                folder,
                None,
                format!("cannot read the folder ({err}): its prompt files are not served"),
            ));
        }
        if read.is_skill {
            warnings.push(problem(
                &dir.join("SKILL.md"),
                None,
                "the folder is an Agent Skill, so none of its files is served as a prompt; \
                 serve it as a skill (`skills_dir`, the CLI serves it so)"
                    .to_owned(),
            ));
        }
        for warning in &warnings {
            if !self.warnings.contains(warning) {
                tracing::warn!(
                    "prompt file served with a warning: {}",
                    Escaped::new(&warning.to_string())
                );
            }
        }
        self.problems = problems;
        self.warnings = warnings;
    }
}

impl DynamicPrompt {
    /// The prompt a prompt file's text defines (the format
    /// [`PromptDir`] serves), named `stem` unless its front matter says
    /// `name`: for prompt files kept elsewhere (embedded with
    /// `include_str!`, stored in a database). A `stem` ending in
    /// `.prompt.md` or `.prompt` reads the text as that kind of file (VS
    /// Code, dotprompt without partials) and is the name without it.
    ///
    /// ```
    /// use mcp_prompts::DynamicPrompt;
    ///
    /// let text = "+++\ntitle = \"Hello\"\n[[arguments]]\nname = \"who\"\n+++\nHello, {who}!";
    /// let hello = DynamicPrompt::from_prompt_file("hello", text).unwrap();
    /// assert_eq!(hello.title(), Some("Hello"));
    /// let broken = DynamicPrompt::from_prompt_file("hello", "+++\n+++\nHello, {who}!");
    /// assert_eq!(broken.unwrap_err().line, Some(3));
    /// ```
    pub fn from_prompt_file(stem: &str, text: &str) -> Result<Self, FileProblem> {
        let path = Path::new(stem);
        let matter = Matter::read(FileKind::of(stem, text), text, stem);
        let loaded = read_prompt(path, stem, (text, matter), None, &Partials::default())
            .map_err(|broken| problem(path, broken.line, broken.message))?;
        loaded
            .prompt
            .ok_or_else(|| problem(path, None, "a partial is not a prompt".to_owned()))
    }
}

fn problem(path: &Path, line: Option<usize>, message: String) -> FileProblem {
    FileProblem {
        path: path.to_owned(),
        line,
        message,
    }
}

/// A file's prompt, in the syntax its name and first line say, or what
/// is wrong with it.
fn read_prompt(
    path: &Path,
    relative: &str,
    (text, matter): (&str, Matter),
    icon: Option<&IconFile>,
    partials: &Partials,
) -> Result<Loaded, Broken> {
    let (name, origin) = (prompt_name(relative), path.display().to_string());
    let (prompt, warnings) = match FileKind::of(relative, text) {
        FileKind::Toml => {
            let matter = matter.toml(text);
            (parse_file(text, matter, &name, &origin, icon)?, Vec::new())
        }
        FileKind::Dotprompt => {
            let matter = matter.yaml(text, &origin);
            dotprompt::parse(text, matter, &name, &origin, icon, partials)?
        }
        FileKind::Partial => {
            if let Some(Err(broken)) = partials.problem(relative) {
                return Err(broken);
            }
            return Ok(Loaded {
                prompt: None,
                warnings: Vec::new(),
            });
        }
        kind => {
            let matter = matter.yaml(text, &origin);
            conventions::parse(kind, text, matter, &name, &origin, icon)?
        }
    };
    if is_valid_name(prompt.name()) {
        Ok(Loaded {
            prompt: Some(prompt),
            warnings,
        })
    } else {
        Err(Broken {
            line: None,
            message: format!(
                "prompt name `{}` must be 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.` (rename the file or set `name`)",
                prompt.name()
            ),
        })
    }
}

/// The icon file a prompt file names, read beneath the directory as the
/// prompt file is. One missing or refused is the prompt's problem; one that
/// cannot be read for a moment (held by an editor) is the prompt file's,
/// which then keeps serving what it last held.
fn read_icon(dir: &ServedDir<'_>, path: String) -> std::io::Result<IconFile> {
    let bytes = match dir.read_bytes(&path, rules::MAX_ICON_BYTES as u64) {
        Ok(bytes) => Ok(bytes),
        Err(err) if matches!(err.kind(), ErrorKind::NotFound | ErrorKind::InvalidData) => {
            Err(err.to_string())
        }
        Err(err) => return Err(err),
    };
    Ok(IconFile { path, bytes })
}

/// Whether a directory entry is a prompt file: `*.md` or `*.prompt`,
/// hidden ones (editors' swap files) aside.
fn is_prompt_file(name: &str) -> bool {
    let kept = Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("prompt"));
    kept && !name.starts_with('.')
}

#[cfg(test)]
mod tests;
