//! Agent Skills read from folders: under each skills root, every folder
//! holding a `SKILL.md` (down to [`MAX_DEPTH`] folders) is a skill, served
//! by its path under the root. A skill is read whole or not at all: one
//! with a bad front matter or name, too many files or bytes, or a link
//! leading out of its folder is a problem on its file and line, and none
//! of its files is served; the others are.

mod matter;

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};

use mcp_prompts_template::rules::is_skill_path_segment;
use mcp_prompts_template::skill::{invisible, look_alike_key};

use self::matter::Matter;
use super::SETTLE;
use super::front_matter::Broken;
use super::read::{ReadLimits, ServedDir};
use super::watch::{Heed, Watch};
use crate::error::Escaped;
use crate::skills::DynamicSkill;
use crate::skills::set::Skill;
use crate::skills::{LiveSkills, SKILL_MD, SkillFile, SkillSet};

/// How many folders below a root skills are looked for:
/// `a/b/c/d/e/f/SKILL.md` at most.
pub(crate) const MAX_DEPTH: usize = 6;

pub(crate) use mcp_prompts_template::skill::{MAX_BYTES, MAX_FILES, MAX_SKILL_DEPTH};

/// How many folders a root's walk opens at most, so that pointing the
/// server at a huge tree costs a bounded time.
const MAX_FOLDERS: usize = 10_000;

/// The most bytes all skills' files may hold together, which the server
/// keeps in memory (twice, for a moment, while a reload swaps them).
pub(crate) const MAX_TOTAL_BYTES: u64 = 256 * 1024 * 1024;

/// What follows each reading of the skills (their prompts), with its
/// problems.
pub(crate) type Follow = Box<dyn FnMut(&SkillSet) -> Vec<String> + Send>;

/// What the skills roots hold: the skills to serve, and every problem.
pub(crate) struct Loaded {
    set: SkillSet,
    /// `path:line: message`, in path order.
    problems: Vec<String>,
    /// For each root, the folders read under it: those to watch.
    folders: Vec<Vec<PathBuf>>,
}

/// The watches that keep a server's skills in step with their folders:
/// dropped, they stop.
pub(crate) struct Watching {
    _watches: Arc<Vec<Watch>>,
}

/// A folder of skills to serve: its path, and how many of its path's last
/// names are opened one at a time, none of them a link, at every reload
/// (0: none; see `PromptDirOptions::pinned`).
#[derive(Clone, Debug)]
pub(crate) struct SkillRoot {
    path: PathBuf,
    pinned_names: u8,
}

impl SkillRoot {
    /// The folder at `path`, the last `pinned_names` names of its path
    /// never a link.
    pub(crate) fn new(path: PathBuf, pinned_names: u8) -> Self {
        Self { path, pinned_names }
    }
}

impl From<PathBuf> for SkillRoot {
    fn from(path: PathBuf) -> Self {
        Self::new(path, 0)
    }
}

/// Reads the skills under `roots` into `live`, then keeps them in step:
/// every folder the reading read is watched (one watch per folder, as the
/// prompt folders are), and a change reads them all again, about 100 ms
/// after the first event of a burst. A root that cannot be read at the
/// start is an error; later, the skills served stay until it can be.
/// `follow` is told of each reading before it is served (the server
/// serves skills as prompts through it), and gives its problems.
pub(crate) fn watch(
    roots: Vec<SkillRoot>,
    page_size: usize,
    fixed: Vec<DynamicSkill>,
    live: Arc<LiveSkills>,
    follow: Option<Follow>,
) -> io::Result<Watching> {
    let (tx, rx) = mpsc::channel::<()>();
    let watches: Vec<Watch> = roots
        .iter()
        .map(|root| Watch::start(&root.path, tx.clone()))
        .collect::<io::Result<_>>()?;
    drop(tx);
    // Read after watching starts, so that no change falls in between.
    let loaded = load(&roots, page_size, &fixed)?;
    let mut serving = Serving {
        live,
        follow,
        logged: BTreeSet::new(),
    };
    serving.serve(loaded, &watches, false);
    let watches = Arc::new(watches);
    let weak = Arc::downgrade(&watches);
    // Ends when the watches (and with them every sender) are dropped.
    std::thread::spawn(move || {
        while rx.recv().is_ok() {
            std::thread::sleep(SETTLE);
            while rx.try_recv().is_ok() {}
            let Some(watches) = weak.upgrade() else { break };
            match load(&roots, page_size, &fixed) {
                Ok(loaded) => serving.serve(loaded, &watches, true),
                Err(err) => tracing::warn!(
                    error = %Escaped::new(&err.to_string()),
                    "cannot read a skills folder: the skills served stay as they were"
                ),
            }
        }
    });
    Ok(Watching { _watches: watches })
}

/// Where the skills read go.
struct Serving {
    live: Arc<LiveSkills>,
    /// What else follows the skills.
    follow: Option<Follow>,
    /// The problems logged already.
    logged: BTreeSet<String>,
}

impl Serving {
    /// Serves what a reading found (and its prompts), follows the folders
    /// it read, and logs each problem once, when it first appears.
    fn serve(&mut self, mut loaded: Loaded, watches: &[Watch], again: bool) {
        for (watch, folders) in watches.iter().zip(&loaded.folders) {
            let folders: Vec<(PathBuf, Heed)> = folders
                .iter()
                .map(|f| (f.clone(), Heed::Everything))
                .collect();
            watch.follow(&folders, again);
        }
        if let Some(follow) = &mut self.follow {
            loaded.problems.extend(follow(&loaded.set));
        }
        for problem in &loaded.problems {
            if !self.logged.contains(problem) {
                tracing::warn!("skill not served: {}", Escaped::new(problem));
            }
        }
        self.logged = loaded.problems.iter().cloned().collect();
        self.live.replace(loaded.set, loaded.problems);
    }
}

/// Reads the skills under `roots`, listed `page_size` to a page. A root
/// that cannot be read is an error; anything wrong below one is a problem.
/// Skills defined in code (`fixed`) come first: a folder's skill at one
/// of their paths is a problem.
pub(crate) fn load(
    roots: &[SkillRoot],
    page_size: usize,
    fixed: &[DynamicSkill],
) -> io::Result<Loaded> {
    load_within(roots, page_size, fixed, MAX_TOTAL_BYTES)
}

/// [`load`], the skills' files together holding at most `total` bytes.
fn load_within(
    roots: &[SkillRoot],
    page_size: usize,
    fixed: &[DynamicSkill],
    total: u64,
) -> io::Result<Loaded> {
    let mut skills: BTreeMap<String, Skill> = BTreeMap::new();
    // Where each skill path was first found, served or not.
    let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut looks = LookAlikes::default();
    let mut files: BTreeMap<String, SkillFile> = BTreeMap::new();
    for skill in fixed {
        let (defined, own) = skill.parts();
        files.extend(own.into_iter().map(|file| (file.path().to_owned(), file)));
        for skill in defined {
            found.insert(skill.path().to_owned(), PathBuf::from("(defined in code)"));
            looks.claim(skill.path());
            skills.insert(skill.path().to_owned(), skill);
        }
    }
    let mut problems = Vec::new();
    let mut watched = Vec::with_capacity(roots.len());
    // What the files read may still hold, all skills together.
    let mut budget = total;
    for SkillRoot {
        path: root,
        pinned_names,
    } in roots
    {
        let named =
            |err: io::Error| io::Error::new(err.kind(), format!("{}: {err}", root.display()));
        let access = ReadLimits {
            pinned_names: *pinned_names,
            ..ReadLimits::default()
        };
        let dir = ServedDir::open(root, access).map_err(named)?;
        let folders = dir.skill_folders(MAX_DEPTH, MAX_FOLDERS).map_err(named)?;
        let mut read: Vec<PathBuf> = folders
            .read
            .iter()
            .map(|f| root.join(f.trim_end_matches('/')))
            .collect();
        for (folder, err) in &folders.unreadable {
            problems.push(format!(
                "{}: not read: {err}",
                Escaped::new(&root.join(folder).display().to_string())
            ));
        }
        if folders.left_out {
            problems.push(format!(
                "{}: more than {MAX_FOLDERS} folders; the rest were not searched for skills",
                Escaped::new(&root.display().to_string())
            ));
        }
        // A root that is itself a skill's folder serves it by its name,
        // and the skills nested in it below that name, as in any skill.
        let root_name = root.file_name().and_then(|n| n.to_str()).map(str::to_owned);
        let root_is_skill = folders.skills.iter().any(String::is_empty);
        for folder in folders.skills {
            let (path, on_disk) = match (folder.strip_suffix('/'), &root_name) {
                (Some(path), Some(name)) if root_is_skill => {
                    (format!("{name}/{path}"), root.join(path))
                }
                (Some(path), _) => (path.to_owned(), root.join(path)),
                (None, Some(name)) => (name.clone(), root.clone()),
                (None, None) => continue,
            };
            if let Some(first) = found.get(&path) {
                problems.push(format!(
                    "{}: the skill path `{path}` is also {}'s; only the first root's is served",
                    Escaped::new(&on_disk.join(SKILL_MD).display().to_string()),
                    Escaped::new(&first.join(SKILL_MD).display().to_string()),
                ));
                continue;
            }
            found.insert(path.clone(), on_disk.clone());
            let at = Place {
                folder: &folder,
                on_disk: &on_disk,
                path: &path,
            };
            match read_skill(&dir, &at, &mut files, &mut read, &mut budget) {
                // A skill whose path a client could take for another's
                // (`ɡit` beside `git`): the first served keeps it. Asked
                // of a skill otherwise whole, so that a name's own fault
                // is told on its line.
                Ok(skill) => match looks.claim(&path) {
                    Some(other) => {
                        problems.push(looks_like(&on_disk, &path, &other, &found[&other]));
                    }
                    None => {
                        skills.insert(path, skill);
                    }
                },
                Err(problem) => problems.push(problem),
            }
        }
        read.sort();
        read.dedup();
        watched.push(read);
    }
    // Only the files of skills served: a skill refused leaves none behind.
    let served: Vec<&str> = skills.keys().map(String::as_str).collect();
    let files = files
        .into_values()
        .filter(|file| served.iter().any(|skill| within(file.path(), skill)))
        .collect();
    let skills = skills.into_values().collect();
    problems.sort();
    Ok(Loaded {
        set: SkillSet::new(skills, files, page_size),
        problems,
        folders: watched,
    })
}

/// The skill paths found, by what each may be mistaken for (TS #39's
/// skeleton). Two paths of ASCII alone are told apart as written.
#[derive(Default)]
struct LookAlikes(BTreeMap<String, Vec<String>>);

impl LookAlikes {
    /// Records `path`, unless a path found before looks like it: then
    /// that one.
    fn claim(&mut self, path: &str) -> Option<String> {
        let found = self.0.entry(look_alike_key(path)).or_default();
        let like = found
            .iter()
            .find(|other| other.as_str() != path && !(other.is_ascii() && path.is_ascii()));
        if let Some(other) = like {
            return Some(other.clone());
        }
        found.push(path.to_owned());
        None
    }
}

/// The problem of the skill at `path` (in `on_disk`) that looks like the
/// one at `other`, found first in `first`.
fn looks_like(on_disk: &Path, path: &str, other: &str, first: &Path) -> String {
    format!(
        "{}: the skill path `{}` looks like `{}` ({}); only the first is served",
        Escaped::new(&on_disk.join(SKILL_MD).display().to_string()),
        Escaped::new(path),
        Escaped::new(other),
        Escaped::new(&first.join(SKILL_MD).display().to_string()),
    )
}

/// Whether the file at `path` lies in the skill folder `skill`.
fn within(path: &str, skill: &str) -> bool {
    path.strip_prefix(skill)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// Where a skill is: its folder beneath the root (`path/`, `""` for the
/// root itself), that folder on disk (for messages and watching), and the
/// path it is served at.
struct Place<'a> {
    folder: &'a str,
    on_disk: &'a Path,
    path: &'a str,
}

/// Reads the skill at `at`, its folder opened beneath the root's handle
/// (`root`), never again by its path; its files join `files` (a file a
/// skill enclosing it read already is that file). Its front matter is
/// checked first, from the start of its `SKILL.md` alone: a skill refused
/// for it costs no other reading.
fn read_skill(
    root: &ServedDir<'_>,
    at: &Place<'_>,
    files: &mut BTreeMap<String, SkillFile>,
    read_folders: &mut Vec<PathBuf>,
    budget: &mut u64,
) -> Result<Skill, String> {
    let Place { on_disk, path, .. } = *at;
    let shown = |name: &str| Escaped::new(&on_disk.join(name).display().to_string()).to_string();
    let access = ReadLimits {
        max_file_bytes: MAX_BYTES,
        ..ReadLimits::default()
    };
    let dir = root
        .beneath(at.folder, on_disk, access)
        .map_err(|err| format!("{}: not read: {err}", shown("")))?;
    let (matter, mut skill_md) = front_matter(&dir, path, files, &shown)?;
    let (names, folders) = dir
        .all_files(MAX_SKILL_DEPTH, MAX_FILES)
        .map_err(|err| format!("{}: not read: {err}", shown("")))?
        .ok_or_else(|| {
            format!(
                "{}: more than {MAX_FILES} files or {MAX_FILES} folders, or folders more than {MAX_SKILL_DEPTH} deep; a skill holds at most {MAX_FILES} files in at most {MAX_FILES} folders, its nested skills' included",
                shown("")
            )
        })?;
    read_folders.extend(
        folders
            .iter()
            .map(|f| on_disk.join(f.trim_end_matches('/'))),
    );
    // Every file's URI is its path: one that would need escaping names
    // nothing a client can read back.
    let mut paths = std::iter::once(path).chain(names.iter().map(String::as_str));
    if let Some(unfit) = paths
        .clone()
        .find(|p| !p.split('/').all(is_skill_path_segment))
    {
        return Err(format!(
            "{}: `{}` has a `%`, `?`, `#`, `\\` or control character, which a skill:// URI cannot hold as it is",
            shown(""),
            Escaped::new(unfit)
        ));
    }
    // Nor may a path hide a character: a client would show another name
    // than the file's (`gpj.\u{202e}txt` shows as `txt.jpg`).
    if let Some((unfit, hidden)) = paths.find_map(|p| invisible(p).map(|c| (p, c))) {
        return Err(format!(
            "{}: `{}` holds U+{:04X}, a character that shows nothing or changes how the text around it shows; a client would show another name than the file's",
            shown(""),
            Escaped::new(unfit),
            u32::from(hidden)
        ));
    }
    // The front matter was read from a `SKILL.md` the walk must find too:
    // one removed in between leaves no skill to serve.
    if !names.iter().any(|name| name == SKILL_MD) {
        return Err(format!(
            "{}: not served: it was removed while the skill was read",
            shown(SKILL_MD)
        ));
    }
    let mut read = Vec::with_capacity(names.len());
    let (mut total, mut new) = (0u64, 0u64);
    for name in &names {
        let full = format!("{path}/{name}");
        if let Some(file) = files.get(&full) {
            total += file.size();
        } else {
            let own = if name == SKILL_MD {
                skill_md.take()
            } else {
                None
            };
            let bytes = match own {
                Some(bytes) => bytes,
                None => dir
                    .read_bytes(name, MAX_BYTES)
                    .map_err(|err| format!("{}: not served: {err}", shown(name)))?,
            };
            total += bytes.len() as u64;
            new += bytes.len() as u64;
            read.push((full, bytes));
        }
        if new > *budget {
            return Err(format!(
                "{}: not served: the skills hold more than {} MiB together ({} bytes), the most the server keeps",
                shown(""),
                MAX_TOTAL_BYTES / (1024 * 1024),
                MAX_TOTAL_BYTES
            ));
        }
        if total > MAX_BYTES {
            return Err(format!(
                "{}: its files hold more than {} MiB; a skill holds at most that, its nested skills' included",
                shown(""),
                MAX_BYTES / (1024 * 1024)
            ));
        }
    }
    *budget -= new;
    for (full, bytes) in read {
        let mime = mcp_prompts_template::skill::mime_of(&full, &bytes);
        files.insert(full.clone(), SkillFile::new(full, bytes, mime));
    }
    Ok(Skill::new(path, matter.json, matter.name, matter.description).limited_to(matter.scopes))
}

/// The front matter of the skill at `path`, checked, and its `SKILL.md`'s
/// bytes when they were read here. A `SKILL.md` a skill enclosing it read
/// already is checked as it is; otherwise only the file's start is read
/// first, as much as a front matter and its `---` lines may take, and the
/// rest only once the front matter is good.
fn front_matter(
    dir: &ServedDir<'_>,
    path: &str,
    files: &BTreeMap<String, SkillFile>,
    shown: &impl Fn(&str) -> String,
) -> Result<(Matter, Option<Vec<u8>>), String> {
    let folder = path.rsplit('/').next().unwrap_or(path);
    let on_line = |broken: Broken| match broken.line {
        Some(line) => format!("{}:{line}: {}", shown(SKILL_MD), broken.message),
        None => format!("{}: {}", shown(SKILL_MD), broken.message),
    };
    let not_text = || format!("{}: not UTF-8 text", shown(SKILL_MD));
    if let Some(file) = files.get(&format!("{path}/{SKILL_MD}")) {
        let text = file.text().ok_or_else(not_text)?;
        return matter::read(text, folder)
            .map(|m| (m, None))
            .map_err(on_line);
    }
    let not_served = |err: io::Error| format!("{}: not served: {err}", shown(SKILL_MD));
    let mut opened = dir.open_bytes(SKILL_MD, MAX_BYTES).map_err(not_served)?;
    let start = opened.start(matter::START_BYTES).map_err(not_served)?;
    let whole = start.len() < matter::START_BYTES;
    // Whole lines only: a line cut short could read as a closing `---`.
    let lines = match start.iter().rposition(|&b| b == b'\n') {
        Some(end) if !whole => &start[..=end],
        _ if !whole => &[][..],
        _ => start,
    };
    let text = std::str::from_utf8(lines).map_err(|_| not_text())?;
    let matter = matter::read_start(text, whole, folder).map_err(on_line)?;
    let bytes = opened.rest().map_err(not_served)?;
    if std::str::from_utf8(&bytes).is_err() {
        return Err(not_text());
    }
    Ok((matter, Some(bytes)))
}

#[cfg(all(test, unix))]
mod tests;
