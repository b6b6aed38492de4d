//! The one way the server reads a file it serves from. Whatever the
//! directory holds (a FIFO, a device, a huge file, a symbolic link to
//! elsewhere, a file swapped for another between two looks), reading it
//! never blocks, never takes more than a bounded amount of memory, and
//! never leaves the directory unless the application allowed it:
//!
//! - the file is opened beneath the directory's own handle, so no `..`,
//!   symbolic link or rename race leads outside it (on Linux through
//!   `openat2` with `RESOLVE_BENEATH`, elsewhere component by component);
//! - it is opened without blocking, then what was opened is checked, not
//!   the path: a regular file, at most the size limit, read with that
//!   bound;
//! - a directory lists at most a bounded number of files, its own and its
//!   subfolders' down to a bounded depth, never through a link.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::{Component, Path};

use cap_fs_ext::DirExt as _;
use cap_std::ambient_authority;
use cap_std::fs::{Dir, File, OpenOptions};

/// The largest prompt file read by default: 1 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 1024 * 1024;

/// How many subfolders deep prompt files are read: `a/b/c/d/x.md` at most.
pub(crate) const MAX_DEPTH: usize = 4;

/// The file that makes a folder an Agent Skill, whose files are not
/// prompts.
pub(super) const SKILL: &str = "SKILL.md";

/// The most prompt files one directory serves by default.
pub const DEFAULT_MAX_FILES: usize = 1000;

/// How a directory's files may be read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReadLimits {
    pub(super) max_file_bytes: u64,
    pub(super) max_files: usize,
    /// Whether a symbolic link may lead outside the directory.
    pub(super) links_outside: bool,
    /// How many of the last names of the directory's path are opened one
    /// at a time, none of them a link, at every read (see
    /// [`ServedDir::open`]); 0: the path is opened as the system resolves it.
    pub(super) pinned_names: u8,
}

impl Default for ReadLimits {
    fn default() -> Self {
        Self {
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            max_files: DEFAULT_MAX_FILES,
            links_outside: false,
            pinned_names: 0,
        }
    }
}

/// A directory opened for reading the files it serves.
pub(crate) struct ServedDir<'a> {
    path: &'a Path,
    handle: Dir,
    access: ReadLimits,
}

/// The directory at `path`: the folder its last `names` names are in
/// opened as the system resolves it, then those names one at a time, none
/// of them a symbolic link.
fn open_pinned(path: &Path, names: usize) -> io::Result<Dir> {
    let parts: Vec<&OsStr> = path
        .components()
        .rev()
        .take(names)
        .map(|part| match part {
            Component::Normal(name) => Ok(name),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a pinned folder's last names are plain names",
            )),
        })
        .collect::<io::Result<_>>()?;
    let mut base = path;
    for _ in 0..names {
        base = base.parent().unwrap_or(Path::new(""));
    }
    let base = if base.as_os_str().is_empty() {
        Path::new(".")
    } else {
        base
    };
    let mut dir = Dir::open_ambient_dir(base, ambient_authority())?;
    for name in parts.into_iter().rev() {
        dir = dir.open_dir_nofollow(name).map_err(|err| {
            let name = Path::new(name).display();
            io::Error::new(
                err.kind(),
                format!("`{name}` is not a real folder now ({err}): a link is not followed"),
            )
        })?;
    }
    Ok(dir)
}

/// A directory's file names, how many were left out over the limit, and
/// the folders the walk read (which are the ones to watch) or could not.
pub(crate) struct Listing {
    pub(super) names: Vec<String>,
    pub(super) left_out: usize,
    /// Each folder read: `""` for the directory, `path/` for subfolders.
    pub(super) folders: Vec<String>,
    /// Each Agent Skill's folder met (`path/`; `""`: the directory),
    /// which the walk left.
    pub(super) skills: Vec<String>,
    /// Each subfolder that could not be read (`path/`), and why.
    pub(super) unreadable: Vec<(String, io::Error)>,
}

/// The Agent Skills' folders a walk found.
#[derive(Default)]
pub(crate) struct Folders {
    /// Each folder holding a `SKILL.md` (`path/`; `""`: the directory).
    pub(super) skills: Vec<String>,
    /// Each folder read (`path/`; `""`: the directory), which are the
    /// ones to watch.
    pub(super) read: Vec<String>,
    /// Each subfolder that could not be read (`path/`), and why.
    pub(super) unreadable: Vec<(String, io::Error)>,
    /// Whether the walk stopped at its bound of folders.
    pub(super) left_out: bool,
}

impl<'a> ServedDir<'a> {
    /// Opens the directory at `path`, to be read as `access` says.
    /// A pinned directory (`access.pinned_names`: a repository's
    /// `.claude/commands`, found to be a real folder) has the last names of
    /// its path opened one at a time, never through a link: a folder that
    /// became a link since (a checkout, a swap) is an error, not a way out,
    /// whenever it is read again.
    pub(crate) fn open(path: &'a Path, access: ReadLimits) -> io::Result<Self> {
        let handle = match access.pinned_names {
            0 => Dir::open_ambient_dir(path, ambient_authority())?,
            names => open_pinned(path, usize::from(names))?,
        };
        Ok(Self {
            path,
            handle,
            access,
        })
    }

    /// The folder `prefix` (`path/` beneath the directory), opened as a
    /// directory of its own, read as `access` says, and shown as `path`
    /// (where it is on disk). It is opened beneath this directory's
    /// handle one name at a time, never through a symbolic link, so a
    /// folder swapped for a link since a walk found it is an error, not
    /// a way out (its path is never opened again).
    pub(crate) fn beneath<'b>(
        &self,
        prefix: &str,
        path: &'b Path,
        access: ReadLimits,
    ) -> io::Result<ServedDir<'b>> {
        Ok(ServedDir {
            path,
            handle: self.folder(prefix)?,
            access,
        })
    }

    /// The folder `prefix` (`""` or `path/`), opened beneath the
    /// directory's handle one name at a time, none of them a link.
    fn folder(&self, prefix: &str) -> io::Result<Dir> {
        let mut names = prefix.split('/').filter(|name| !name.is_empty());
        let Some(first) = names.next() else {
            return self.handle.try_clone();
        };
        let mut dir = self.handle.open_dir_nofollow(first)?;
        for name in names {
            dir = dir.open_dir_nofollow(name)?;
        }
        Ok(dir)
    }

    /// The paths (relative, `/`-separated) of the files that `wanted`
    /// accepts, in the directory and its subfolders down to
    /// [`MAX_DEPTH`], in path order, at most the limit of them. Hidden
    /// folders are not read, nor a folder holding a `SKILL.md` (an Agent
    /// Skill, not prompts), the directory itself included; a link to a
    /// folder is not followed.
    /// This walk is the rule of what the directory serves from: its
    /// watch follows the folders the walk read.
    pub(crate) fn list(&self, wanted: impl Fn(&str) -> bool) -> io::Result<Listing> {
        let limit = self.access.max_files;
        let mut names = Vec::new();
        let (mut read, mut skills, mut unreadable) = (Vec::new(), Vec::new(), Vec::new());
        let mut folders = vec![(String::new(), 0)];
        // The walk is bounded too: at most as many folders as files.
        let mut opened = 0;
        while let Some((prefix, depth)) = folders.pop() {
            opened += 1;
            // The directory's own listing must be read; a subfolder that
            // cannot be is left out, not the rest.
            let listed = self.entries_of(&prefix, &wanted);
            let (here, subfolders) = match listed {
                Ok(Some(listed)) => listed,
                Err(err) if depth == 0 => return Err(err),
                Err(err) => {
                    unreadable.push((prefix, err));
                    continue;
                }
                // An Agent Skill's folder.
                Ok(None) => {
                    skills.push(prefix);
                    continue;
                }
            };
            read.push(prefix.clone());
            names.extend(here);
            // Past the limit the rest is not read: what it would hold is
            // not counted either.
            if names.len() > limit || opened >= limit {
                break;
            }
            if depth < MAX_DEPTH {
                let deeper = subfolders
                    .into_iter()
                    .map(|f| (format!("{prefix}{f}/"), depth + 1));
                folders.extend(deeper);
            }
        }
        names.sort_unstable();
        let left_out = names.len().saturating_sub(limit);
        names.truncate(limit);
        read.sort_unstable();
        skills.sort_unstable();
        unreadable.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Ok(Listing {
            names,
            left_out,
            folders: read,
            skills,
            unreadable,
        })
    }

    /// The files `wanted` accepts in the folder `prefix` (`""`, or
    /// `path/` beneath the directory), and its subfolders' names; `None`
    /// for an Agent Skill's folder (one holding a `SKILL.md`). The
    /// directory too: a skill served as a prompt folder would serve its
    /// `SKILL.md` and its other Markdown as prompts, past the skill's
    /// scopes.
    fn entries_of(
        &self,
        prefix: &str,
        wanted: &impl Fn(&str) -> bool,
    ) -> io::Result<Option<(Vec<String>, Vec<String>)>> {
        let (files, subfolders) = self.entries(prefix)?;
        if files.iter().any(|name| name == SKILL) {
            return Ok(None);
        }
        let files = files
            .into_iter()
            .filter(|name| wanted(name))
            .map(|name| format!("{prefix}{name}"))
            .collect();
        Ok(Some((files, subfolders)))
    }

    /// The folders beneath the directory (`path/`, or `""` for the
    /// directory itself) that hold a `SKILL.md`, down to `max_depth`
    /// folders, in path order: hidden folders are not read, a link to a
    /// folder is not followed, and at most `max_folders` folders are
    /// opened. Subfolders that cannot be read are returned with why.
    pub(crate) fn skill_folders(
        &self,
        max_depth: usize,
        max_folders: usize,
    ) -> io::Result<Folders> {
        let mut found = Folders::default();
        let mut pending = vec![(String::new(), 0)];
        let mut opened = 0;
        while let Some((prefix, depth)) = pending.pop() {
            if opened == max_folders {
                found.left_out = true;
                break;
            }
            opened += 1;
            let (files, subfolders) = match self.entries(&prefix) {
                Ok(entries) => entries,
                Err(err) if prefix.is_empty() => return Err(err),
                Err(err) => {
                    found.unreadable.push((prefix, err));
                    continue;
                }
            };
            if files.iter().any(|name| name == SKILL) {
                found.skills.push(prefix.clone());
            }
            found.read.push(prefix.clone());
            if depth < max_depth {
                pending.extend(
                    subfolders
                        .into_iter()
                        .map(|f| (format!("{prefix}{f}/"), depth + 1)),
                );
            }
        }
        found.skills.sort_unstable();
        Ok(found)
    }

    /// Every file beneath the directory (relative, `/`-separated), in
    /// path order, and the folders read (`path/`, `""` the directory):
    /// hidden files and folders are left out, links to folders are not
    /// followed; `None` past `max_files` files, `max_files` folders (each
    /// one a watch, and a listing read at every reload), or `max_depth`
    /// folders deep, where the walk stops.
    pub(crate) fn all_files(
        &self,
        max_depth: usize,
        max_files: usize,
    ) -> io::Result<Option<(Vec<String>, Vec<String>)>> {
        let (mut names, mut read) = (Vec::new(), Vec::new());
        let mut pending = vec![(String::new(), 0)];
        while let Some((prefix, depth)) = pending.pop() {
            let (files, subfolders) = self.entries(&prefix)?;
            names.extend(
                files
                    .into_iter()
                    .filter(|f| !f.starts_with('.'))
                    .map(|f| format!("{prefix}{f}")),
            );
            // Those read, this one, and those still to read.
            let folders = read.len() + 1 + pending.len() + subfolders.len();
            if names.len() > max_files
                || folders > max_files
                || (depth == max_depth && !subfolders.is_empty())
            {
                return Ok(None);
            }
            pending.extend(
                subfolders
                    .into_iter()
                    .map(|f| (format!("{prefix}{f}/"), depth + 1)),
            );
            read.push(prefix);
        }
        names.sort_unstable();
        Ok(Some((names, read)))
    }

    /// The names of the files (links included) and of the subfolders that
    /// are not hidden, in the folder `prefix` (`""`, or `path/`).
    fn entries(&self, prefix: &str) -> io::Result<(Vec<String>, Vec<String>)> {
        // A subfolder is opened as the walk found it: a link put in its
        // place since is not followed.
        let entries = if prefix.is_empty() {
            self.handle.entries()?
        } else {
            self.folder(prefix)?.entries()?
        };
        let (mut files, mut subfolders) = (Vec::new(), Vec::new());
        for entry in entries {
            let entry = entry?;
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                continue;
            };
            // A link is not a folder here: links to folders are not followed.
            if entry.file_type()?.is_dir() {
                if !name.starts_with('.') {
                    subfolders.push(name);
                }
            } else {
                files.push(name);
            }
        }
        Ok((files, subfolders))
    }

    /// The text of the file `name`. A file that is not there is
    /// `NotFound`; one that may not be served (not a regular file, too
    /// large, not UTF-8, a link leading outside) is `InvalidData` with the
    /// reason.
    pub(crate) fn read(&self, name: &str) -> io::Result<String> {
        let bytes = self.read_bytes(name, self.access.max_file_bytes)?;
        String::from_utf8(bytes).map_err(|_| refused("not UTF-8 text"))
    }

    /// The bytes of the file `name` (beneath the directory, as
    /// [`read`](Self::read) opens it), at most `limit` of them.
    pub(crate) fn read_bytes(&self, name: &str, limit: u64) -> io::Result<Vec<u8>> {
        self.open_bytes(name, limit)?.rest()
    }

    /// The file `name` opened as [`read_bytes`](Self::read_bytes) opens
    /// it, to be read in parts: its start first, the rest only if wanted.
    pub(crate) fn open_bytes(&self, name: &str, limit: u64) -> io::Result<OpenedFile> {
        let file = self.open_file(name)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            return Err(refused("not a regular file"));
        }
        if metadata.len() > limit {
            return Err(too_large(limit));
        }
        Ok(OpenedFile {
            // The file may grow between the look and the read.
            reader: file.take(limit + 1),
            bytes: Vec::new(),
            expected: usize::try_from(metadata.len()).unwrap_or(0),
            limit,
        })
    }

    fn open_file(&self, name: &str) -> io::Result<File> {
        let mut options = OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use cap_std::fs::OpenOptionsExt as _;
            // A FIFO opened for reading waits for a writer; a device may
            // wait for anything. Neither may hold the loader.
            options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        match self.handle.open_with(name, &options) {
            Ok(file) => Ok(file),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Err(err),
            Err(err) if self.is_link(name) => {
                if !self.access.links_outside {
                    return Err(refused(
                        "a symbolic link leading outside the directory (allow it with \
                         `PromptDirOptions::links_outside`)",
                    ));
                }
                let mut options = std::fs::OpenOptions::new();
                options.read(true);
                #[cfg(unix)]
                {
                    use std::os::unix::fs::OpenOptionsExt as _;
                    options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
                }
                match options.open(self.path.join(name)) {
                    Ok(file) => Ok(File::from_std(file)),
                    Err(_) => Err(err),
                }
            }
            Err(err) => Err(err),
        }
    }

    fn is_link(&self, name: &str) -> bool {
        self.handle
            .symlink_metadata(name)
            .is_ok_and(|m| m.file_type().is_symlink())
    }
}

/// A regular file opened for reading, within its size limit, read in
/// parts from one handle: what its start said still holds of the whole.
pub(crate) struct OpenedFile {
    reader: std::io::Take<File>,
    /// What was read so far.
    bytes: Vec<u8>,
    /// Its size when opened: room is made for it only once the whole file
    /// is wanted.
    expected: usize,
    limit: u64,
}

impl OpenedFile {
    /// The file's first `len` bytes (all of a shorter file), read now if
    /// they were not yet.
    pub(crate) fn start(&mut self, len: usize) -> io::Result<&[u8]> {
        if self.bytes.len() < len {
            let wanted = (len - self.bytes.len()) as u64;
            (&mut self.reader)
                .take(wanted)
                .read_to_end(&mut self.bytes)?;
        }
        Ok(&self.bytes[..len.min(self.bytes.len())])
    }

    /// The whole file: what was read, then the rest.
    pub(crate) fn rest(mut self) -> io::Result<Vec<u8>> {
        self.bytes
            .reserve(self.expected.saturating_sub(self.bytes.len()));
        self.reader.read_to_end(&mut self.bytes)?;
        if self.bytes.len() as u64 > self.limit {
            return Err(too_large(self.limit));
        }
        Ok(self.bytes)
    }
}

fn refused(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.to_owned())
}

fn too_large(limit: u64) -> io::Error {
    refused(&format!("larger than the limit of {limit} bytes"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::files::tests::scratch;

    #[test]
    fn reads_regular_files_within_bounds_and_refuses_the_rest() {
        let root = scratch("read-bounds");
        let dir = root.join("prompts");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("ok.md"), "hello").unwrap();
        std::fs::write(dir.join("big.md"), vec![b'x'; 2048]).unwrap();
        std::fs::write(dir.join("binary.md"), [0xff, 0xfe]).unwrap();
        std::fs::write(root.join("secret.md"), "outside").unwrap();
        std::os::unix::fs::symlink(root.join("secret.md"), dir.join("outside.md")).unwrap();
        std::os::unix::fs::symlink("ok.md", dir.join("inside.md")).unwrap();
        std::fs::create_dir(dir.join("sub.md")).unwrap();
        let fifo = dir.join("fifo.md");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let access = ReadLimits {
            max_file_bytes: 1024,
            ..ReadLimits::default()
        };
        let served = ServedDir::open(&dir, access).unwrap();
        assert_eq!(served.read("ok.md").unwrap(), "hello");
        assert_eq!(served.read("inside.md").unwrap(), "hello");
        let reason = |name: &str| {
            let err = served.read(name).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{name}: {err}");
            err.to_string()
        };
        assert!(reason("big.md").contains("limit of 1024"));
        assert!(reason("binary.md").contains("UTF-8"));
        assert!(reason("outside.md").contains("outside the directory"));
        assert!(reason("fifo.md").contains("not a regular file"));
        assert_eq!(
            served.read("gone.md").unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        let allowed = ServedDir::open(
            &dir,
            ReadLimits {
                links_outside: true,
                ..access
            },
        )
        .unwrap();
        assert_eq!(allowed.read("outside.md").unwrap(), "outside");
        let listing = ServedDir::open(
            &dir,
            ReadLimits {
                max_files: 3,
                ..access
            },
        )
        .unwrap()
        .list(|name| {
            Path::new(name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("md"))
        })
        .unwrap();
        assert_eq!(listing.names, ["big.md", "binary.md", "fifo.md"]);
        assert_eq!(listing.left_out, 3, "the subfolder is not listed");
        let _ = std::fs::remove_dir_all(&root);
    }
}
