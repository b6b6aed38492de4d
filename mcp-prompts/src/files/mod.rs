//! Prompt files: a directory of `*.md` files, one prompt each, served in a
//! live catalog and kept in step with the directory as files are added,
//! edited, renamed and deleted.

mod body;
mod command;
mod conventions;
mod dotprompt;
mod front_matter;
mod kind;
mod loader;
mod matter;
mod read;
pub(crate) mod skills;
#[cfg(feature = "registry")]
pub(crate) mod stored;
mod translations;
mod vscode;
mod watch;
mod yaml;

use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::dynamic::DynamicPrompt;
use crate::protocol::is_valid_name;
use dotprompt::Partials;
use front_matter::{Broken, IconFile, parse_file};
use kind::{FileKind, prompt_name};
use loader::Loader;
use matter::Matter;
use mcp_prompts_template::rules;
pub use read::{DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES};
use read::{ReadLimits, ServedDir};

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

/// What a file gave: its prompt (none for a partial), and warnings for its
/// author about a prompt served all the same.
#[derive(Clone)]
struct Loaded {
    prompt: Option<DynamicPrompt>,
    warnings: Vec<Broken>,
    /// The partial files it includes, relative to the folder: what a
    /// registry stores with it.
    #[cfg(feature = "registry")]
    partials: Vec<String>,
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
    let (prompt, warnings, partials) = match FileKind::of(relative, text) {
        FileKind::Toml => {
            let matter = matter.toml(text);
            let prompt = parse_file(text, matter, &name, &origin, icon)?;
            (prompt, Vec::new(), Vec::new())
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
                #[cfg(feature = "registry")]
                partials: Vec::new(),
            });
        }
        kind => {
            let matter = matter.yaml(text, &origin);
            let (prompt, warnings) = conventions::parse(kind, text, matter, &name, &origin, icon)?;
            (prompt, warnings, Vec::new())
        }
    };
    if is_valid_name(prompt.name()) {
        #[cfg(not(feature = "registry"))]
        let _ = partials;
        Ok(Loaded {
            prompt: Some(prompt),
            warnings,
            #[cfg(feature = "registry")]
            partials,
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
