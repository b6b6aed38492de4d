//! Watching a prompt folder as its loader reads it. The loader's walk
//! ([`ServedDir::list`](super::read::ServedDir::list)) is the one rule of
//! what a folder serves from: no links followed, no hidden folders, none
//! deeper than four, none left to another reader (an Agent Skill's). So
//! the watch is one watch per folder the walk read, never a recursive
//! one (which would follow links and enter every folder the walk leaves
//! alone), kept in step with each reload; and each event is kept only if
//! it is about an entry of a folder the walk read (where a platform's
//! recursive watch is one watch of the OS, not registering is not
//! enough). A skill's folder is watched too, for its `SKILL.md` alone:
//! without it, the folder is the walk's again.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use notify::event::ModifyKind;
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::read::SKILL;
use crate::error::Escaped;
use crate::sync::lock;

/// Which entries of a watched folder may change what the walk reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Heed {
    /// Every entry, hidden ones too: a Kubernetes `ConfigMap`'s files are
    /// links through `..data`, and an update swaps only that link.
    Everything,
    /// Only the `SKILL.md` that makes it a skill's folder.
    SkillFile,
}

/// The watches on the folders a prompt folder's walk read.
pub(super) struct Watch {
    watcher: Mutex<RecommendedWatcher>,
    /// The folders watched, which the event handler filters by. Never
    /// locked while the watcher is called: the watcher may wait for the
    /// handler, which takes this lock.
    watched: Arc<Mutex<Watched>>,
    /// Asks for a reload.
    reload: Sender<()>,
}

/// The folders watched, as the watcher was given them and as events may
/// name them.
#[derive(Default)]
struct Watched {
    /// Each folder by the path it was watched by.
    folders: HashMap<PathBuf, Heed>,
    /// Each folder by every path an event may name it by: the one it was
    /// watched by, and its canonical one (macOS's `FSEvents` reports those:
    /// `/private/tmp`, never `/tmp` or a relative path). With the path it
    /// was watched by.
    named: HashMap<PathBuf, (PathBuf, Heed)>,
    /// Folders removed or renamed since they were watched, by the path
    /// they were watched by: a folder now at that path is another one, to
    /// be watched afresh.
    stale: HashSet<PathBuf>,
}

impl Watched {
    fn insert(&mut self, folder: PathBuf, heed: Heed) {
        if let Ok(canonical) = std::fs::canonicalize(&folder) {
            self.named.insert(canonical, (folder.clone(), heed));
        }
        self.named.insert(folder.clone(), (folder.clone(), heed));
        self.folders.insert(folder, heed);
    }

    fn remove(&mut self, folder: &Path) {
        self.folders.remove(folder);
        self.named.retain(|_, (given, _)| given != folder);
    }

    /// Marks stale each watched folder that `event` removed or renamed.
    fn note_moved(&mut self, event: &Event) {
        if !matches!(
            event.kind,
            EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))
        ) {
            return;
        }
        for path in &event.paths {
            if let Some((given, _)) = self.named.get(path) {
                self.stale.insert(given.clone());
            }
        }
    }

    /// Whether `event` may change what the walk reads: it is about an
    /// entry a watched folder heeds, or a watched folder itself, or the
    /// watch as a whole.
    fn concerns(&self, event: &Event) -> bool {
        event.paths.is_empty()
            || event.paths.iter().any(|path| {
                let heed = path.parent().and_then(|p| self.named.get(p));
                let heeded = match heed {
                    Some((_, Heed::Everything)) => true,
                    Some((_, Heed::SkillFile)) => path.file_name() == Some(SKILL.as_ref()),
                    None => false,
                };
                heeded || self.named.contains_key(path)
            })
    }
}

impl Watch {
    /// Watches `dir` itself; `reload` is sent `()` on each event that may
    /// change what the walk reads.
    pub(super) fn start(dir: &Path, reload: Sender<()>) -> io::Result<Self> {
        let folders = Arc::new(Mutex::new(Watched::default()));
        let followed = Arc::clone(&folders);
        let sender = reload.clone();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<Event>| match event {
                Ok(event) if changes_files(event.kind) => {
                    let mut followed = lock(&followed);
                    followed.note_moved(&event);
                    if followed.concerns(&event) {
                        let _ = sender.send(());
                    }
                }
                Ok(_) => {}
                Err(error) => {
                    tracing::warn!(error = %Escaped::new(&error.to_string()), "watching prompt files");
                }
            })
            .map_err(io::Error::other)?;
        watcher
            .watch(dir, RecursiveMode::NonRecursive)
            .map_err(io::Error::other)?;
        lock(&folders).insert(dir.to_owned(), Heed::Everything);
        Ok(Self {
            watcher: Mutex::new(watcher),
            watched: folders,
            reload,
        })
    }

    /// Watches exactly the folders in `read` (the walk's, the top one
    /// among them), each heeding what it says. A folder new to the watch
    /// may have gained files between the walk and its watch: with
    /// `recheck`, the folder is then read again (not at the start, where
    /// every folder is new and the walk has just begun).
    pub(super) fn follow(&self, read: &[(PathBuf, Heed)], recheck: bool) {
        let wanted: HashMap<&PathBuf, Heed> = read.iter().map(|(f, h)| (f, *h)).collect();
        // Let go of the folders gone, stale or heeded otherwise now, then
        // watch the new ones: a stale folder's watch may be on a folder
        // since moved to a path now read, which must be watched anew.
        let (dropped, new) = {
            let mut watched = lock(&self.watched);
            let stale = std::mem::take(&mut watched.stale);
            let dropped: Vec<PathBuf> = watched
                .folders
                .iter()
                .filter(|(f, heed)| stale.contains(*f) || wanted.get(f) != Some(heed))
                .map(|(f, _)| f.clone())
                .collect();
            for folder in &dropped {
                watched.remove(folder);
            }
            let new: Vec<(PathBuf, Heed)> = read
                .iter()
                .filter(|(f, _)| !watched.folders.contains_key(f))
                .cloned()
                .collect();
            (dropped, new)
        };
        let mut watcher = lock(&self.watcher);
        for gone in &dropped {
            // A folder removed took its watch with it.
            let _ = watcher.unwatch(gone);
        }
        let mut added = false;
        for (folder, heed) in new {
            match watcher.watch(&folder, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    lock(&self.watched).insert(folder, heed);
                    added = true;
                }
                Err(error) => tracing::warn!(
                    folder = %Escaped::new(&folder.to_string_lossy()),
                    error = %Escaped::new(&error.to_string()),
                    "a prompt folder cannot be watched: its changes are served at the next reload"
                ),
            }
        }
        if added && recheck {
            let _ = self.reload.send(());
        }
    }

    /// The folders watched now, with what each heeds.
    #[cfg(test)]
    pub(super) fn watched(&self) -> Vec<(PathBuf, Heed)> {
        let watched = lock(&self.watched);
        let mut folders: Vec<_> = watched
            .folders
            .iter()
            .map(|(f, h)| (f.clone(), *h))
            .collect();
        folders.sort_by(|a, b| a.0.cmp(&b.0));
        folders
    }
}

/// Whether an event may have changed what a file holds: not a mere open
/// or read, but a write closed (all some writers produce) counts.
fn changes_files(kind: EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode};
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use notify::event::{CreateKind, RemoveKind, RenameMode};

    use super::*;

    fn watched(folders: &[(&str, Heed)]) -> Watched {
        let mut watched = Watched::default();
        for (folder, heed) in folders {
            watched.insert(PathBuf::from(folder), *heed);
        }
        watched
    }

    fn event(kind: EventKind, path: &str) -> Event {
        Event::new(kind).add_path(PathBuf::from(path))
    }

    #[test]
    fn entries_of_watched_folders_count_as_each_folder_heeds() {
        let watched = watched(&[
            ("/p", Heed::Everything),
            ("/p/git", Heed::Everything),
            ("/p/skill", Heed::SkillFile),
        ]);
        let any = |path| event(EventKind::Any, path);
        for counted in [
            "/p/a.md",
            "/p/git/new-folder",
            // A ConfigMap's update, and an editor's swap file.
            "/p/..data",
            "/p/.a.md.swp",
            "/p/skill/SKILL.md",
            "/p/git",
        ] {
            assert!(watched.concerns(&any(counted)), "{counted}");
        }
        for ignored in [
            "/p/.git/index",
            "/p/deep/x/y/z/w/a.md",
            "/p/skill/scripts",
            "/p/skill/notes.md",
            "/elsewhere/a.md",
        ] {
            assert!(!watched.concerns(&any(ignored)), "{ignored}");
        }
        assert!(watched.concerns(&Event::new(EventKind::Any)));
    }

    #[test]
    fn events_may_name_a_folder_by_its_canonical_path() {
        let dir =
            std::env::temp_dir().join(format!("mcp-prompts-canonical-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let link = dir.with_extension("link");
        let _ = std::fs::remove_file(&link);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        #[cfg(not(unix))]
        let link = dir.clone();
        let mut watched = Watched::default();
        watched.insert(link.clone(), Heed::Everything);
        let canonical = std::fs::canonicalize(&dir).unwrap().join("a.md");
        assert!(watched.concerns(&Event::new(EventKind::Any).add_path(canonical)));
        let _ = std::fs::remove_file(&link);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_folder_removed_or_renamed_is_stale() {
        let mut watched = watched(&[("/p", Heed::Everything), ("/p/a", Heed::Everything)]);
        watched.note_moved(&event(EventKind::Create(CreateKind::Folder), "/p/a"));
        watched.note_moved(&event(EventKind::Remove(RemoveKind::File), "/p/a.md"));
        assert!(watched.stale.is_empty());
        watched.note_moved(&event(EventKind::Remove(RemoveKind::Folder), "/p/a"));
        assert_eq!(watched.stale, HashSet::from([PathBuf::from("/p/a")]));
        watched.stale.clear();
        let renamed = EventKind::Modify(ModifyKind::Name(RenameMode::From));
        watched.note_moved(&event(renamed, "/p/a"));
        assert_eq!(watched.stale, HashSet::from([PathBuf::from("/p/a")]));
    }
}
