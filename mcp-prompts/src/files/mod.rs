//! Prompt files: a directory of `*.md` files, one prompt each, served in a
//! live catalog and kept in step with the directory as files are added,
//! edited, renamed and deleted.

mod front_matter;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use notify::{RecursiveMode, Watcher};

use crate::catalog::is_valid_name;
use crate::dynamic::DynamicPrompt;
use crate::server::Prompts;
use front_matter::{Broken, parse_file};

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
/// Each `*.md` file is one prompt: TOML front matter between `+++` lines
/// (`name`, `title`, `description`, and `[[arguments]]` with `name`,
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
    state: Arc<Mutex<DirState>>,
    _watcher: notify::RecommendedWatcher,
}

/// What the directory held when last read.
struct DirState {
    dir: PathBuf,
    prompts: Prompts,
    /// Each file's text and what it gave, so that an unchanged file keeps
    /// its prompt (and the catalog does not change).
    files: HashMap<PathBuf, (String, Result<DynamicPrompt, Broken>)>,
    /// The prompts this directory put in the catalog.
    served: Vec<DynamicPrompt>,
    problems: Vec<FileProblem>,
}

impl PromptDir {
    /// Serves the prompt files in `dir` through `prompts`, and keeps them
    /// in step with the directory: a change is served and announced
    /// within a fraction of a second.
    pub fn watch(dir: impl Into<PathBuf>, prompts: &Prompts) -> std::io::Result<Self> {
        let dir = dir.into();
        if !dir.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("prompt directory `{}` is not a directory", dir.display()),
            ));
        }
        let state = Arc::new(Mutex::new(DirState {
            dir: dir.clone(),
            prompts: prompts.clone(),
            files: HashMap::new(),
            served: Vec::new(),
            problems: Vec::new(),
        }));
        let (tx, rx) = std_mpsc::channel::<()>();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| match event {
                Ok(event) if changes_files(event.kind) => {
                    let _ = tx.send(());
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "watching prompt files"),
            })
            .map_err(std::io::Error::other)?;
        watcher
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(std::io::Error::other)?;
        // Read after watching starts, so that no change falls in between.
        lock(&state).reload();
        let weak = Arc::downgrade(&state);
        // Ends when the watcher (and with it the sender) is dropped.
        std::thread::spawn(move || {
            while rx.recv().is_ok() {
                std::thread::sleep(SETTLE);
                while rx.try_recv().is_ok() {}
                let Some(state) = weak.upgrade() else { break };
                lock(&state).reload();
            }
        });
        tracing::info!(dir = %dir.display(), "watching prompt files");
        Ok(Self {
            state,
            _watcher: watcher,
        })
    }

    /// Reads the directory again now, as a change event would.
    pub fn reload(&self) {
        lock(&self.state).reload();
    }

    /// The files not served now, and why.
    pub fn problems(&self) -> Vec<FileProblem> {
        lock(&self.state).problems.clone()
    }

    /// The names of the prompts served from the directory now.
    pub fn served(&self) -> Vec<String> {
        lock(&self.state)
            .served
            .iter()
            .map(|p| p.name().to_owned())
            .collect()
    }
}

impl Drop for PromptDir {
    fn drop(&mut self) {
        let mut state = lock(&self.state);
        let served = std::mem::take(&mut state.served);
        state.prompts.sync_group(&served, Vec::new());
    }
}

impl fmt::Debug for PromptDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = lock(&self.state);
        f.debug_struct("PromptDir")
            .field("dir", &state.dir)
            .field("served", &state.served)
            .field("problems", &state.problems)
            .finish_non_exhaustive()
    }
}

impl DirState {
    /// Reads the directory again and serves what it now holds.
    fn reload(&mut self) {
        let paths = match prompt_files(&self.dir) {
            Ok(paths) => paths,
            Err(err) => {
                tracing::warn!(dir = %self.dir.display(), error = %err, "cannot read the prompt directory");
                return;
            }
        };
        let mut files = HashMap::with_capacity(paths.len());
        for path in paths {
            let text = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                // Gone since it was listed.
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                Err(err) => {
                    // Held by another program for a moment: what it held
                    // before stays. Not text, or never read: reported.
                    let kept = self
                        .files
                        .remove(&path)
                        .filter(|_| err.kind() != std::io::ErrorKind::InvalidData);
                    let entry = kept.unwrap_or_else(|| {
                        let message = format!("cannot read the file: {err}");
                        (
                            String::new(),
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
            let read = match self.files.remove(&path) {
                Some((old, read)) if old == text => read,
                _ => read_prompt(&path, &text),
            };
            files.insert(path, (text, read));
        }
        self.files = files;

        // Files in name order, so that of two with the same prompt name
        // the same one is served every time.
        let mut paths: Vec<&PathBuf> = self.files.keys().collect();
        paths.sort();
        let mut problems = Vec::new();
        let mut candidates: Vec<(&PathBuf, DynamicPrompt)> = Vec::new();
        for path in paths {
            match &self.files[path].1 {
                Ok(prompt) => {
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
        for prompt in taken {
            if let Some((path, _)) = candidates.iter().find(|(_, p)| p.same_as(&prompt)) {
                problems.push(problem(
                    path,
                    None,
                    format!(
                        "prompt name `{}` is already taken by a prompt not from this directory",
                        prompt.name()
                    ),
                ));
            }
        }
        self.served = served;
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        for problem in &problems {
            if !self.problems.contains(problem) {
                tracing::warn!("prompt file not served: {problem}");
            }
        }
        self.problems = problems;
    }
}

impl DynamicPrompt {
    /// The prompt a prompt file's text defines (the format
    /// [`PromptDir`] serves), named `stem` unless its front matter says
    /// `name`: for prompt files kept elsewhere (embedded with
    /// `include_str!`, stored in a database).
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
        read_prompt(path, text).map_err(|broken| problem(path, broken.line, broken.message))
    }
}

fn problem(path: &Path, line: Option<usize>, message: String) -> FileProblem {
    FileProblem {
        path: path.to_owned(),
        line,
        message,
    }
}

/// A file's prompt, or what is wrong with it.
fn read_prompt(path: &Path, text: &str) -> Result<DynamicPrompt, Broken> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let prompt = parse_file(text, stem, &path.display().to_string())?;
    if is_valid_name(prompt.name()) {
        Ok(prompt)
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

/// The directory's `*.md` files, hidden ones (editors' swap files) aside.
fn prompt_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let hidden = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_none_or(|n| n.starts_with('.'));
        let markdown = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("md"));
        if !hidden && markdown && path.is_file() {
            paths.push(path);
        }
    }
    Ok(paths)
}

/// Whether an event may have changed what a file holds: not a mere open
/// or read, but a write closed (all some writers produce) counts.
fn changes_files(kind: notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode};
    match kind {
        notify::EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        notify::EventKind::Access(_) => false,
        _ => true,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Server;

    /// A fresh directory under the system's temporary one.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mcp-prompts-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_reload_keeps_what_the_application_disabled_and_a_drop_removes_the_prompts() {
        let dir = scratch("files-disable");
        std::fs::write(dir.join("one.md"), "+++\n+++\nOne").unwrap();
        std::fs::write(dir.join("Two.MD"), "+++\n+++\nTwo").unwrap();
        std::fs::write(dir.join(".hidden.md"), "+++\n+++\nHidden").unwrap();
        let (_service, prompts) = Server::new("t", "1")
            .prompts(std::iter::empty::<crate::AnyPrompt>())
            .build_live()
            .unwrap();
        let watched = PromptDir::watch(&dir, &prompts).unwrap();
        assert_eq!(prompts.served(), ["Two", "one"]);
        assert!(prompts.disable("one"));
        std::fs::write(dir.join("three.md"), "+++\n+++\nThree").unwrap();
        watched.reload();
        assert_eq!(prompts.served(), ["Two", "three"]);
        assert!(prompts.enable("one"));
        assert_eq!(watched.served().len(), 3);
        assert!(watched.problems().is_empty());
        drop(watched);
        assert!(prompts.served().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_broken_file_is_a_problem_until_fixed() {
        let dir = scratch("files-broken");
        let file = dir.join("broken.md");
        std::fs::write(&file, "+++\n+++\nHi {who}").unwrap();
        let (_service, prompts) = Server::new("t", "1")
            .prompts(std::iter::empty::<crate::AnyPrompt>())
            .build_live()
            .unwrap();
        let watched = PromptDir::watch(&dir, &prompts).unwrap();
        let problems = watched.problems();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].line, Some(3));
        assert_eq!(
            problems[0].to_string(),
            format!(
                "{}:3: placeholder `{{who}}` names no argument; the prompt declares no arguments",
                file.display()
            )
        );
        assert!(prompts.served().is_empty());
        std::fs::write(&file, "+++\n[[arguments]]\nname = \"who\"\n+++\nHi {who}").unwrap();
        watched.reload();
        assert!(watched.problems().is_empty());
        assert_eq!(prompts.served(), ["broken"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
