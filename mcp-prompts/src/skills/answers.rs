//! The results of the skill and resource methods, borrowed from the
//! snapshot they answer from, and written once in the request's era.

use std::cell::OnceCell;
use std::ops::Range;

use base64::display::Base64Display;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use super::file::json_str_bound;
use super::set::{Child, Skill, SkillSet};
use super::{DIRECTORY_MIME, SCHEME, SkillFile};
use crate::caller::Access;
use crate::error::{Error, excerpt};
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::{Answer, Cached};
use crate::protocol::cursor;

/// `Resource not found`, the code of revisions 2024-11-05 to 2025-11-25;
/// 2026-07-28 uses -32602 instead, and must not send this one.
const RESOURCE_NOT_FOUND: i32 = -32002;

/// A snapshot as one caller sees it: a skill limited to scopes the
/// caller lacks is hidden, with every skill nested in it and every file
/// in its folder, and answers exactly as one that does not exist.
pub(crate) struct View<'a> {
    set: &'a SkillSet,
    /// The folders of the skills hidden from this caller.
    hidden: Vec<&'a str>,
    /// Whether what is seen depends on who asks: 2026-07-28 results are
    /// then `private`.
    cached: Cached,
    /// The files of the generated skills this request reads, made once.
    generated: OnceCell<SkillSet>,
}

impl SkillSet {
    /// The skills and files `access` may see.
    pub(crate) fn view(&self, access: &Access) -> View<'_> {
        let hidden = self
            .skills()
            .iter()
            .filter(|skill| !skill.allows(access))
            .map(Skill::path)
            .collect();
        let scoped = self.skills().iter().any(Skill::is_restricted);
        View {
            set: self,
            hidden,
            cached: if scoped {
                Cached::PerCaller
            } else {
                Cached::Shared
            },
            generated: OnceCell::new(),
        }
    }
}

impl<'a> View<'a> {
    /// Whether the file or folder at `path` lies in a hidden skill's folder.
    fn hides(&self, path: &str) -> bool {
        self.hidden.iter().any(|folder| {
            path.strip_prefix(folder)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }

    fn skills(&self) -> Vec<&'a Skill> {
        self.set
            .skills()
            .iter()
            .filter(|s| !self.hides(s.path()))
            .collect()
    }

    fn entry(&self, skill: &'a Skill) -> Entry<'a> {
        let files = self
            .set
            .files_under(skill.path())
            .iter()
            .filter(|f| !self.hides(f.path()))
            .collect();
        Entry { skill, files }
    }

    fn item<'v>(&'v self, file: &'v SkillFile) -> Item<'v> {
        let skill = self.set.skill_of_skill_md(file).or_else(|| {
            self.generated
                .get()
                .and_then(|set| set.skill_of_skill_md(file))
        });
        Item::File(file, skill)
    }

    /// The files `skills` (generated ones) hold now, made once a request.
    fn generated<'v>(&'v self, skills: impl Iterator<Item = &'v Skill>) -> &'v SkillSet {
        self.generated.get_or_init(|| {
            let (mut made, mut files) = (Vec::new(), Vec::new());
            for skill in skills.filter(|s| !self.hides(s.path())) {
                files.extend(skill.generate().unwrap_or_default());
                made.push(skill.clone());
            }
            SkillSet::new(made, files, self.set.page_size())
        })
    }

    /// How a result drawn from `set` may be cached: not at all when it
    /// holds what a generated skill made.
    fn cached_from(&self, set: &SkillSet) -> Cached {
        if set.skills().iter().any(Skill::is_generated) {
            Cached::No
        } else {
            self.cached
        }
    }

    /// The set that holds what lies at `uri`: this one, or the files a
    /// generated skill makes now.
    fn holding<'v>(&'v self, uri: &str) -> &'v SkillSet {
        match self.set.generated_holding(uri) {
            Some(skill) => self.generated(std::iter::once(skill)),
            None => self.set,
        }
    }

    /// `skills/list`: the page `cursor` points at, whole entries only. A
    /// page also ends once its entries take about [`PAGE_BYTES`] (after
    /// at least one): a skill's entry lists every file, so fifty skills of
    /// 512 files with long paths would make one page of a hundred
    /// megabytes. Its cursor is where the next page starts.
    pub(crate) fn list(&self, cursor: Option<&str>) -> Result<SkillList<'a>, Error> {
        let skills = self.skills();
        let (range, _) = page(skills.len(), self.set.page_size(), None)?;
        let most = range.len();
        let start = match cursor {
            None => 0,
            // Only a place within the list: a cursor we handed out.
            Some(text) => cursor::decode(text)
                .filter(|&start| start < skills.len())
                .ok_or_else(|| {
                    Error::invalid_params(format!("invalid cursor: `{}`", excerpt(text)))
                })?,
        };
        let (mut entries, mut bytes) = (Vec::new(), 0usize);
        for skill in skills[start..].iter().take(most) {
            if !entries.is_empty() && bytes >= PAGE_BYTES {
                break;
            }
            let entry = self.entry(skill);
            bytes += entry.listed_bytes();
            entries.push(entry);
        }
        let end = start + entries.len();
        let next = (end < skills.len()).then(|| cursor::encode(end));
        Ok(SkillList {
            entries,
            next,
            cached: self.cached,
        })
    }

    /// `skills/get`: the skill whose `SKILL.md` is at `uri`.
    pub(crate) fn get(&self, uri: &str) -> Result<SkillResult<'a>, Error> {
        match self.set.skill_at(uri).filter(|s| !self.hides(s.path())) {
            Some(skill) => Ok(SkillResult(self.entry(skill), self.cached)),
            None => Err(Error::invalid_params(format!(
                "Unknown skill: {}",
                excerpt(uri)
            ))),
        }
    }

    /// `resources/read` of the file at `uri`; an unknown one is refused
    /// with the code `version` has for it.
    pub(crate) fn read<'v>(
        &'v self,
        uri: &str,
        version: ProtocolVersion,
    ) -> Result<ReadResult<'v>, Error> {
        let holding = self.holding(uri);
        match holding.file_at(uri).filter(|f| !self.hides(f.path())) {
            Some(file) => Ok(ReadResult(file, self.cached_from(holding))),
            None => {
                let message = format!("Resource not found: {}", excerpt(uri));
                let error = if version.is_modern() {
                    Error::invalid_params(message)
                } else {
                    Error::new(RESOURCE_NOT_FOUND, message)
                };
                // The URI asked for, as SEP-2164 says (and earlier
                // revisions' examples show), cut as every echo of client input is.
                Err(error.with_data(serde_json::json!({ "uri": excerpt(uri) })))
            }
        }
    }

    /// `resources/list`: every file, for clients that know no skills; of
    /// a generated skill its `SKILL.md` as made now (its other files vary,
    /// and would move the pages).
    pub(crate) fn resources<'v>(&'v self, cursor: Option<&str>) -> Result<ResourceList<'v>, Error> {
        let made = self.generated(self.set.skills().iter().filter(|s| s.is_generated()));
        let made_skill_md = made
            .files()
            .iter()
            .filter(|f| made.skill_of_skill_md(f).is_some());
        let mut files: Vec<&SkillFile> = self
            .set
            .files()
            .iter()
            .chain(made_skill_md)
            .filter(|f| !self.hides(f.path()))
            .collect();
        if !made.skills().is_empty() {
            files.sort_by(|a, b| a.path().cmp(b.path()));
        }
        let (range, next) = page(files.len(), self.set.page_size(), cursor)?;
        let items = files[range].iter().map(|file| self.item(file)).collect();
        Ok(ResourceList {
            items,
            next,
            cached: self.cached_from(made),
        })
    }

    /// `resources/directory/read`: the direct children of the directory
    /// at `uri`, a page at a time.
    pub(crate) fn read_directory<'v>(
        &'v self,
        uri: &str,
        cursor: Option<&str>,
    ) -> Result<ResourceList<'v>, Error> {
        let holding = self.holding(uri);
        let children = holding.directory_at(uri).map(|children| {
            children
                .into_iter()
                .filter(|child| match *child {
                    Child::File(file) => !self.hides(file.path()),
                    Child::Directory(path) => !self.hides(path),
                })
                .collect::<Vec<_>>()
        });
        let Some(children) = children.filter(|c| !c.is_empty()) else {
            return Err(Error::invalid_params(format!(
                "Not a directory: {}",
                excerpt(uri)
            )));
        };
        let (range, next) = page(children.len(), self.set.page_size(), cursor)?;
        let items = children[range]
            .iter()
            .map(|child| match *child {
                Child::File(file) => self.item(file),
                Child::Directory(path) => Item::Directory(path),
            })
            .collect();
        Ok(ResourceList {
            items,
            next,
            cached: self.cached_from(holding),
        })
    }
}

/// About how many bytes a `skills/list` page holds at most (past its
/// first entry): well under a megabyte, as the skills extension's pages
/// are meant to be.
const PAGE_BYTES: usize = 512 * 1024;

/// The range of items on the page `cursor` points at, and the next
/// page's cursor; 0 items a page: one page.
fn page(
    len: usize,
    page_size: usize,
    cursor: Option<&str>,
) -> Result<(Range<usize>, Option<String>), Error> {
    let size = if page_size == 0 {
        len.max(1)
    } else {
        page_size
    };
    let page = match cursor {
        None => 0,
        // Only a cursor we handed out: a page that starts within the list.
        Some(text) => cursor::decode(text)
            .filter(|&page| page == 0 || page.checked_mul(size).is_some_and(|start| start < len))
            .ok_or_else(|| Error::invalid_params(format!("invalid cursor: `{}`", excerpt(text))))?,
    };
    let start = (page * size).min(len);
    let end = (start + size).min(len);
    Ok((start..end, (end < len).then(|| cursor::encode(page + 1))))
}

/// A skill as `skills/list` and `skills/get` give it: the URI of its
/// `SKILL.md`, its front matter, and every file with digest and size.
struct Entry<'a> {
    skill: &'a Skill,
    /// Its files (a nested skill's too) that the caller may see.
    files: Vec<&'a SkillFile>,
}

impl Entry<'_> {
    /// About the bytes it takes in a listing: its front matter, and per
    /// file its URI as JSON writes it and what goes with it (a digest of
    /// 71 bytes, a size, the keys).
    fn listed_bytes(&self) -> usize {
        const PER_FILE: usize = 128;
        let files: usize = self
            .files
            .iter()
            .map(|f| json_str_bound(f.path()) + PER_FILE)
            .sum();
        self.skill.path().len() + self.skill.front_matter_bytes() + PER_FILE + files
    }
}

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("uri", &format!("{SCHEME}{}", self.skill.skill_md()))?;
        map.serialize_entry("frontmatter", self.skill.front_matter())?;
        if self.skill.is_generated() {
            map.serialize_entry("resources", "dynamic")?;
        } else {
            map.serialize_entry("resources", &Manifest(&self.files))?;
        }
        map.end()
    }
}

/// A skill's files, each with its digest and size.
struct Manifest<'a>(&'a [&'a SkillFile]);

impl Serialize for Manifest<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Listed<'a> {
            uri: String,
            digest: &'a str,
            size: u64,
        }
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for file in self.0 {
            seq.serialize_element(&Listed {
                uri: format!("{SCHEME}{}", file.path()),
                digest: file.digest(),
                size: file.size(),
            })?;
        }
        seq.end()
    }
}

/// A `skills/list` page.
pub(crate) struct SkillList<'a> {
    entries: Vec<Entry<'a>>,
    next: Option<String>,
    cached: Cached,
}

#[cfg(feature = "rmcp")]
impl<'a> SkillList<'a> {
    /// The page's skills, each with the files the caller may see.
    pub(crate) fn skills(&self) -> impl Iterator<Item = (&'a Skill, &[&'a SkillFile])> + '_ {
        self.entries
            .iter()
            .map(|entry| (entry.skill, entry.files.as_slice()))
    }

    pub(crate) fn next_cursor(&self) -> Option<&str> {
        self.next.as_deref()
    }
}

impl Answer for SkillList<'_> {
    fn cached(&self) -> Cached {
        self.cached
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

impl Serialize for SkillList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("skills", &self.entries)?;
        if let Some(next) = &self.next {
            map.serialize_entry("nextCursor", next)?;
        }
        map.end()
    }
}

/// A `skills/get` result.
pub(crate) struct SkillResult<'a>(Entry<'a>, Cached);

#[cfg(feature = "rmcp")]
impl<'a> SkillResult<'a> {
    /// The skill, with the files the caller may see.
    pub(crate) fn skill(&self) -> (&'a Skill, &[&'a SkillFile]) {
        (self.0.skill, &self.0.files)
    }
}

impl Answer for SkillResult<'_> {
    fn cached(&self) -> Cached {
        self.1
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

impl Serialize for SkillResult<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("skill", &self.0)?;
        map.end()
    }
}

/// A `resources/read` result: the file's bytes as read, text when they
/// are UTF-8, else base64.
pub(crate) struct ReadResult<'a>(&'a SkillFile, Cached);

#[cfg(feature = "rmcp")]
impl<'a> ReadResult<'a> {
    pub(crate) fn file(&self) -> &'a SkillFile {
        self.0
    }
}

impl Answer for ReadResult<'_> {
    fn cached(&self) -> Cached {
        self.1
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }

    /// The file's contents as the file bounds them, and the fields around
    /// them: `{"contents":[{"uri":..,"mimeType":..,"text":..}]}`.
    fn size_bound(&self) -> Option<usize> {
        let file = self.0;
        let uri = json_str_bound(SCHEME) + json_str_bound(file.path());
        Some(64 + uri + json_str_bound(file.mime()) + file.json_bound())
    }
}

impl Serialize for ReadResult<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Contents<'a>(&'a SkillFile);
        impl Serialize for Contents<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let file = self.0;
                let mut map = s.serialize_map(Some(3))?;
                map.serialize_entry("uri", &format!("{SCHEME}{}", file.path()))?;
                map.serialize_entry("mimeType", file.mime())?;
                match file.text() {
                    Some(text) => map.serialize_entry("text", text)?,
                    // Encoded as it is written: no copy of the file in base64.
                    None => map.serialize_entry("blob", &Base64(file.bytes()))?,
                }
                map.end()
            }
        }
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("contents", &[Contents(self.0)])?;
        map.end()
    }
}

/// Bytes as a base64 string, encoded straight into what is being written.
struct Base64<'a>(&'a [u8]);

impl Serialize for Base64<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&Base64Display::new(self.0, &BASE64))
    }
}

/// A resource as `resources/list` and `resources/directory/read` give it.
pub(crate) enum Item<'a> {
    /// A file, with the skill it is the `SKILL.md` of.
    File(&'a SkillFile, Option<&'a Skill>),
    /// A folder, by its path under the root.
    Directory(&'a str),
}

impl Serialize for Item<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        match *self {
            Self::File(file, skill) => {
                map.serialize_entry("uri", &format!("{SCHEME}{}", file.path()))?;
                match skill {
                    Some(skill) => {
                        map.serialize_entry("name", skill.name())?;
                        map.serialize_entry("description", skill.description())?;
                    }
                    None => map.serialize_entry("name", file.name())?,
                }
                map.serialize_entry("mimeType", file.mime())?;
                map.serialize_entry("size", &file.size())?;
            }
            Self::Directory(path) => {
                map.serialize_entry("uri", &format!("{SCHEME}{path}"))?;
                map.serialize_entry("name", path.rsplit('/').next().unwrap_or_default())?;
                map.serialize_entry("mimeType", DIRECTORY_MIME)?;
            }
        }
        map.end()
    }
}

/// A `resources/list` or `resources/directory/read` page.
pub(crate) struct ResourceList<'a> {
    items: Vec<Item<'a>>,
    next: Option<String>,
    cached: Cached,
}

#[cfg(feature = "rmcp")]
impl<'a> ResourceList<'a> {
    pub(crate) fn items(&self) -> &[Item<'a>] {
        &self.items
    }

    pub(crate) fn next_cursor(&self) -> Option<&str> {
        self.next.as_deref()
    }
}

impl Answer for ResourceList<'_> {
    fn cached(&self) -> Cached {
        self.cached
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

impl Serialize for ResourceList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("resources", &self.items)?;
        if let Some(next) = &self.next {
            map.serialize_entry("nextCursor", next)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::caller::Caller;
    use crate::skills::set::tests::sample;

    fn json(answer: &impl Serialize) -> Value {
        serde_json::to_value(answer).unwrap()
    }

    #[test]
    fn an_entry_lists_every_file_under_its_folder() {
        let set = sample();
        let got = json(
            &set.view(&Access::Local)
                .get("skill://acme/billing/refunds/SKILL.md")
                .unwrap(),
        );
        let file = set
            .file_at("skill://acme/billing/refunds/SKILL.md")
            .unwrap();
        assert_eq!(
            got,
            json!({"skill": {
                "uri": "skill://acme/billing/refunds/SKILL.md",
                "frontmatter": {"name": "refunds", "description": "The refunds skill"},
                "resources": [{"uri": "skill://acme/billing/refunds/SKILL.md",
                               "digest": file.digest(), "size": file.size()}],
            }})
        );
        let error = set
            .view(&Access::Local)
            .get("skill://acme/billing/refunds")
            .err()
            .unwrap();
        assert_eq!(error.code(), Error::INVALID_PARAMS);
    }

    #[test]
    fn a_listing_page_stops_at_its_size_after_one_entry() {
        // Three skills of 300 files with long paths: each entry about
        // 640 KB, past a page's bytes on its own.
        let (mut skills, mut files) = (Vec::new(), Vec::new());
        for name in ["a", "b", "c"] {
            let front_matter = serde_json::json!({"name": name, "description": "d"});
            let serde_json::Value::Object(front_matter) = front_matter else {
                unreachable!()
            };
            skills.push(Skill::new(name, front_matter, name, "d"));
            files.push(SkillFile::new(
                format!("{name}/SKILL.md"),
                b"x".to_vec(),
                "text/markdown",
            ));
            let long = "p".repeat(2_000);
            for i in 0..300 {
                let path = format!("{name}/{long}{i}.txt");
                files.push(SkillFile::new(path, b"x".to_vec(), "text/plain"));
            }
        }
        let set = SkillSet::new(skills, files, 0);
        let view = set.view(&Access::Local);
        let (mut cursor, mut seen) = (None, Vec::new());
        loop {
            let page = view.list(cursor.as_deref()).unwrap();
            let written = json(&page);
            let entries = written["skills"].as_array().unwrap();
            assert_eq!(entries.len(), 1, "one entry a page");
            assert!(serde_json::to_string(&written).unwrap().len() < 1 << 20);
            seen.push(
                entries[0]["frontmatter"]["name"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            );
            match written["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        assert_eq!(seen, ["a", "b", "c"]);
    }

    #[test]
    fn pages_hold_whole_entries_and_cursors_are_checked() {
        let set = SkillSet::new(
            sample()
                .skills()
                .iter()
                .map(|s| {
                    Skill::new(
                        s.path(),
                        s.front_matter().clone(),
                        s.name(),
                        s.description(),
                    )
                })
                .collect(),
            Vec::new(),
            1,
        );
        let first = json(&set.view(&Access::Local).list(None).unwrap());
        assert_eq!(first["skills"].as_array().unwrap().len(), 1);
        let next = first["nextCursor"].as_str().unwrap().to_owned();
        let second = json(&set.view(&Access::Local).list(Some(&next)).unwrap());
        assert_eq!(second["skills"][0]["frontmatter"]["name"], "refunds");
        assert!(second.get("nextCursor").is_none());
        // One page: no cursor names a second, nor an overflowing one.
        let one_page = sample();
        let view = one_page.view(&Access::Local);
        assert!(view.list(Some(&cursor::encode(2))).is_err());
        assert!(view.list(Some(&cursor::encode(usize::MAX))).is_err());
        assert!(set.view(&Access::Local).list(Some("bogus")).is_err());
        assert!(
            set.view(&Access::Local)
                .list(Some(&cursor::encode(2)))
                .is_err()
        );
    }

    #[test]
    fn an_unknown_resource_has_its_revisions_code() {
        let set = sample();
        let old = set
            .view(&Access::Local)
            .read("skill://nope", ProtocolVersion::V2025_11_25)
            .err()
            .unwrap();
        assert_eq!(old.code(), RESOURCE_NOT_FOUND);
        let new = set
            .view(&Access::Local)
            .read("skill://nope", ProtocolVersion::MODERN)
            .err()
            .unwrap();
        assert_eq!(new.code(), Error::INVALID_PARAMS);
        let text = json(
            &set.view(&Access::Local)
                .read(
                    "skill://acme/billing/templates/invoice.md",
                    ProtocolVersion::MODERN,
                )
                .unwrap(),
        );
        assert_eq!(text["contents"][0]["text"], "Invoice");
    }

    #[test]
    fn a_skill_md_is_listed_with_its_skills_name_and_description() {
        let set = sample();
        let listed = json(&set.view(&Access::Local).resources(None).unwrap());
        assert_eq!(listed["resources"][0]["name"], "billing");
        assert_eq!(listed["resources"][0]["description"], "The billing skill");
        let dir = json(
            &set.view(&Access::Local)
                .read_directory("skill://acme/billing", None)
                .unwrap(),
        );
        assert_eq!(
            dir["resources"][2],
            json!({"uri": "skill://acme/billing/refunds", "name": "refunds", "mimeType": "inode/directory"})
        );
    }

    #[test]
    fn a_skill_limited_to_scopes_is_hidden_with_what_it_holds() {
        let base = sample();
        let skills = base
            .skills()
            .iter()
            .map(|s| {
                let skill = Skill::new(
                    s.path(),
                    s.front_matter().clone(),
                    s.name(),
                    s.description(),
                );
                if s.name() == "billing" {
                    skill.limited_to(vec!["finance".into()])
                } else {
                    skill
                }
            })
            .collect();
        let files = base
            .files()
            .iter()
            .map(|f| SkillFile::new(f.path(), f.bytes().to_vec(), f.mime()))
            .collect();
        let set = SkillSet::new(skills, files, 0);
        let stranger = Access::Remote(Some(std::sync::Arc::new(Caller::new("ann"))));
        let view = set.view(&stranger);
        // The billing skill, the refunds skill inside it, and every file.
        assert_eq!(json(&view.list(None).unwrap()), json!({"skills": []}));
        assert_eq!(
            json(&view.resources(None).unwrap()),
            json!({"resources": []})
        );
        for uri in [
            "skill://acme/billing/SKILL.md",
            "skill://acme/billing/refunds/SKILL.md",
        ] {
            assert!(view.get(uri).is_err(), "{uri}");
            assert!(view.read(uri, ProtocolVersion::MODERN).is_err(), "{uri}");
        }
        assert!(view.read_directory("skill://acme/billing", None).is_err());
        assert_eq!(view.cached, Cached::PerCaller);
        let finance = Caller::new("bob").with_scopes(["finance"]);
        let view = set.view(&Access::Remote(Some(std::sync::Arc::new(finance))));
        assert_eq!(
            json(&view.list(None).unwrap())["skills"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        assert_eq!(set.view(&Access::Local).skills().len(), 2);
        assert!(
            set.view(&Access::Remote(None))
                .get("skill://acme/billing/SKILL.md")
                .is_err()
        );
    }

    #[test]
    fn a_generated_skill_answers_from_what_it_makes_now() {
        use crate::protocol::answer::Answer as _;
        use crate::skills::SkillContent;

        let matter = |name: &str| {
            let json = serde_json::json!({"name": name, "description": "d"});
            json.as_object().unwrap().clone()
        };
        let made =
            Skill::new("gen", matter("gen"), "gen", "d").generated_by(std::sync::Arc::new(|| {
                SkillContent::new("Now").file("data/a.txt", "text/plain", "a")
            }));
        // A skill nested in it, from a folder: its nearest skill is its own.
        let inner = Skill::new("gen/inner", matter("inner"), "inner", "d");
        let file = SkillFile::new("gen/inner/SKILL.md", b"inner".to_vec(), "text/markdown");
        let set = SkillSet::new(vec![made, inner], vec![file], 0);
        let view = set.view(&Access::Local);
        let listed = json(&view.get("skill://gen/SKILL.md").unwrap());
        assert_eq!(listed["skill"]["resources"], "dynamic");
        let read = view
            .read("skill://gen/data/a.txt", ProtocolVersion::LATEST)
            .unwrap();
        assert_eq!(read.file().bytes(), b"a");
        assert!(matches!(read.cached(), Cached::No));
        let view = set.view(&Access::Local);
        let inner = view
            .read("skill://gen/inner/SKILL.md", ProtocolVersion::LATEST)
            .unwrap();
        assert_eq!(inner.file().bytes(), b"inner");
        // Listed for clients that know no skills: its SKILL.md, not the
        // files it makes, which vary.
        let view = set.view(&Access::Local);
        let uris: Vec<String> = json(&view.resources(None).unwrap())["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(uris, ["skill://gen/SKILL.md", "skill://gen/inner/SKILL.md"]);
        let view = set.view(&Access::Local);
        let children = json(&view.read_directory("skill://gen/data", None).unwrap());
        assert_eq!(children["resources"][0]["uri"], "skill://gen/data/a.txt");
    }

    #[test]
    fn a_reads_size_bound_holds_its_body() {
        use crate::protocol::answer::Answer as _;

        let text = "line\n\"quoted\"\t\u{1}\u{e9}".repeat(100);
        let files = vec![
            SkillFile::new("a/SKILL.md", b"---\nname: a\n---\n".to_vec(), "text/x\"y"),
            SkillFile::new("a/t\"q.txt", text.into_bytes(), "text/plain"),
            SkillFile::new("a/b.bin", vec![0xff; 1000], "application/octet-stream"),
        ];
        let set = SkillSet::new(Vec::new(), files, 0);
        let view = set.view(&Access::Local);
        for file in set.files() {
            let uri = format!("{SCHEME}{}", file.path());
            let read = view.read(&uri, ProtocolVersion::LATEST).unwrap();
            let written = serde_json::to_string(&read.body(ProtocolVersion::LATEST)).unwrap();
            let bound = read.size_bound().unwrap();
            assert!(bound >= written.len(), "{uri}: {bound} < {}", written.len());
            if file.text().is_none() {
                // Base64's length is known exactly.
                assert!(bound < written.len() + 200, "{uri}: {bound} far over");
            }
        }
    }
}
