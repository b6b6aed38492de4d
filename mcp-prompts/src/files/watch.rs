//! Watching a prompt folder as its loader reads it. The loader's walk
//! ([`ServedDir::list`](super::read::ServedDir::list)) is the one rule of
//! what a folder serves from: no links followed, no hidden folders, none
//! deeper than four, none left to another reader (an Agent Skill's). So
//! the watch is one watch per folder the walk read, never a recursive
//! one (which would follow links and enter every folder the walk leaves
//! alone), kept in step with each reload; and each event is kept only if
//! it is about an entry of a folder the walk read (where a platform's
//! recursive watch is one watch of the OS, not registering is not
//! enough).

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher};

use crate::error::Escaped;
use crate::sync::lock;

/// The watches on the folders a prompt folder's walk read.
pub(super) struct Watch {
    watcher: Mutex<RecommendedWatcher>,
    /// The folders watched, which the event handler filters by.
    folders: Arc<Mutex<HashSet<PathBuf>>>,
    /// Asks for a reload.
    reload: Sender<()>,
}

impl Watch {
    /// Watches `dir` itself; `reload` is sent `()` on each event that may
    /// change what the walk reads.
    pub(super) fn start(dir: &Path, reload: Sender<()>) -> io::Result<Self> {
        let folders = Arc::new(Mutex::new(HashSet::new()));
        let followed = Arc::clone(&folders);
        let sender = reload.clone();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<Event>| match event {
                Ok(event) if changes_files(event.kind) && concerns(&event, &lock(&followed)) => {
                    let _ = sender.send(());
                }
                Ok(_) => {}
                Err(error) => {
                    tracing::warn!(error = %Escaped(&error.to_string()), "watching prompt files");
                }
            })
            .map_err(io::Error::other)?;
        watcher
            .watch(dir, RecursiveMode::NonRecursive)
            .map_err(io::Error::other)?;
        lock(&folders).insert(dir.to_owned());
        Ok(Self {
            watcher: Mutex::new(watcher),
            folders,
            reload,
        })
    }

    /// Watches exactly the folders in `read` (the walk's, the top one
    /// among them). A folder new to the watch may have gained files
    /// between the walk and its watch: with `recheck`, the folder is then
    /// read again (not at the start, where every folder is new and the
    /// walk has just begun).
    pub(super) fn follow(&self, read: &[PathBuf], recheck: bool) {
        let before = lock(&self.folders).clone();
        let wanted: HashSet<&PathBuf> = read.iter().collect();
        let mut watcher = lock(&self.watcher);
        for gone in before.iter().filter(|folder| !wanted.contains(folder)) {
            // A folder removed took its watch with it.
            let _ = watcher.unwatch(gone);
            lock(&self.folders).remove(gone);
        }
        let mut added = false;
        for new in read.iter().filter(|folder| !before.contains(*folder)) {
            match watcher.watch(new, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    lock(&self.folders).insert(new.clone());
                    added = true;
                }
                Err(error) => tracing::warn!(
                    folder = %Escaped(&new.to_string_lossy()),
                    error = %Escaped(&error.to_string()),
                    "a prompt folder cannot be watched: its changes are served at the next reload"
                ),
            }
        }
        if added && recheck {
            let _ = self.reload.send(());
        }
    }

    /// The folders watched now.
    #[cfg(test)]
    pub(super) fn watched(&self) -> Vec<PathBuf> {
        let mut folders: Vec<PathBuf> = lock(&self.folders).iter().cloned().collect();
        folders.sort();
        folders
    }
}

/// Whether `event` is about an entry of a watched folder (not a hidden
/// one: editors' swap files, `.git`), or about the watch as a whole.
fn concerns(event: &Event, folders: &HashSet<PathBuf>) -> bool {
    event.paths.is_empty()
        || event.paths.iter().any(|path| {
            let hidden = path
                .file_name()
                .and_then(|name| name.to_str())
                .is_none_or(|name| name.starts_with('.'));
            !hidden && path.parent().is_some_and(|parent| folders.contains(parent))
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_entries_of_watched_folders_count() {
        let folders: HashSet<PathBuf> = ["/p", "/p/git"].iter().map(PathBuf::from).collect();
        let event = |path: &str| Event::new(notify::EventKind::Any).add_path(PathBuf::from(path));
        assert!(concerns(&event("/p/a.md"), &folders));
        assert!(concerns(&event("/p/git/new-folder"), &folders));
        for ignored in [
            "/p/.git/index",
            "/p/.a.md.swp",
            "/p/deep/x/y/z/w/a.md",
            "/p/skill/SKILL.md",
            "/elsewhere/a.md",
        ] {
            assert!(!concerns(&event(ignored), &folders), "{ignored}");
        }
        assert!(concerns(&Event::new(notify::EventKind::Any), &folders));
    }
}
