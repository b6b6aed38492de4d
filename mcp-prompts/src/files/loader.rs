//! A watched prompt folder's reading: one reload at a time, each file's
//! text kept with what it gave, so that an unchanged file keeps its prompt,
//! and what changed served through the live catalog.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};

use super::dotprompt::Partials;
use super::front_matter::{Broken, IconFile, is_uri};
use super::kind::FileKind;
use super::matter::Matter;
use super::read::{ReadLimits, ServedDir};
use super::translations::Joined;
use super::watch::{Heed, Watch};
use crate::catalog::Prompts;
use crate::dynamic::DynamicPrompt;
use crate::error::Escaped;
use crate::protocol::language::Language;
use crate::sync::lock;

#[cfg(feature = "registry")]
use super::stored::StoredPrompt;
use super::{
    FileProblem, Loaded, PromptDir, PromptDirOptions, SETTLE, is_prompt_file, problem, read_icon,
    read_prompt,
};

/// Reads the directory, one reload at a time, and keeps what it read.
pub(super) struct Loader {
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
    /// Translations attached to their defaults, kept between reloads.
    joined: Joined,
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
        let loader = Arc::new(Loader::new(dir.clone(), options.0, prompts));
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

    /// Serves the prompt files in `dir` through `prompts` as they are now,
    /// not watched: for a command that reads a folder once (`publish`).
    #[cfg(feature = "registry")]
    pub(crate) fn read_once(dir: impl Into<PathBuf>, prompts: &Prompts) -> std::io::Result<Self> {
        let dir = dir.into();
        if !dir.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("prompt directory `{}` is not a directory", dir.display()),
            ));
        }
        let loader = Arc::new(Loader::new(dir, ReadLimits::default(), prompts));
        loader.read_and_serve(false);
        Ok(Self { loader })
    }

    /// Each prompt the folder serves, as its file holds it: the file's
    /// path in the folder and text, with the icon file it names and the
    /// partials it includes; in name order.
    #[cfg(feature = "registry")]
    pub(crate) fn stored(&self) -> Vec<(String, StoredPrompt)> {
        let state = lock(&self.loader.state);
        let dir = &self.loader.dir;
        let relative = |path: &Path| {
            let relative = path.strip_prefix(dir).unwrap_or(path);
            relative.to_string_lossy().replace('\\', "/")
        };
        let mut stored: Vec<(String, StoredPrompt)> = (state.files.iter())
            .filter_map(|(path, (text, loaded))| {
                let loaded = loaded.as_ref().ok()?;
                let prompt = loaded.prompt.as_ref()?;
                // Served as it is, or with its translations joined to it.
                let served = |p: &DynamicPrompt| p.same_as(prompt) || state.joined.joins(prompt, p);
                state.served.iter().find(|p| served(p))?;
                let relative_path = relative(path);
                let mut files = Vec::new();
                // The files of the translations served, stored beside it.
                for translation in state.joined.translation_files(prompt.name()) {
                    if let Some((text, _)) = state.files.get(translation) {
                        files.push((relative(translation), text.text.as_bytes().to_vec()));
                    }
                }
                if let Some(IconFile {
                    path,
                    bytes: Ok(bytes),
                }) = &text.icon
                {
                    files.push((path.clone(), bytes.clone()));
                }
                for partial in &loaded.partials {
                    let text = state.partials.text_of(partial)?;
                    files.push((partial.clone(), text.as_bytes().to_vec()));
                }
                let source = StoredPrompt::new(relative_path, text.text.clone(), files);
                Some((prompt.name().to_owned(), source))
            })
            .collect();
        stored.sort_by(|a, b| a.0.cmp(&b.0));
        stored
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
    /// The loader of `dir`, read as `access` says, serving through
    /// `prompts`; nothing read yet, no watch.
    fn new(dir: PathBuf, access: ReadLimits, prompts: &Prompts) -> Self {
        Self {
            dir,
            access,
            reloading: Mutex::new(()),
            state: Mutex::new(DirState {
                prompts: prompts.clone(),
                files: HashMap::new(),
                partials: Partials::default(),
                served: Vec::new(),
                problems: Vec::new(),
                warnings: Vec::new(),
                joined: Joined::default(),
            }),
            watch: std::sync::OnceLock::new(),
        }
    }

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
                    ..
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
        let default = self.prompts.default_language();
        let joining = (&mut self.joined, default);
        let candidates = translated(joining, candidates, &mut problems, &mut warnings);
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

/// The folder's prompts with every translation attached to its
/// default (`translations.rs`); what is wrong with one goes to
/// `problems` or `warnings`.
fn translated(
    (joined, default): (&mut Joined, &Language),
    candidates: Vec<(&PathBuf, DynamicPrompt)>,
    problems: &mut Vec<FileProblem>,
    warnings: &mut Vec<FileProblem>,
) -> Vec<(PathBuf, DynamicPrompt)> {
    let candidates = candidates
        .into_iter()
        .map(|(path, prompt)| (path.clone(), prompt))
        .collect();
    let (served, wrong, doubtful) = joined.join(candidates, default);
    for (path, message) in wrong {
        problems.push(problem(&path, None, message));
    }
    for (path, message) in doubtful {
        warnings.push(problem(&path, None, message));
    }
    served
}

#[cfg(test)]
impl Loader {
    /// The folders the watch follows now.
    pub(super) fn watched(&self) -> Vec<(PathBuf, super::watch::Heed)> {
        self.watch.get().expect("watching").watched()
    }

    /// The prompts the folder serves now.
    pub(super) fn served_now(&self) -> Vec<DynamicPrompt> {
        lock(&self.state).served.clone()
    }
}
