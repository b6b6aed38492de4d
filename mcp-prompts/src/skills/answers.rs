//! The results of the skill and resource methods: each holds the snapshot
//! it was drawn from and the places in it of what it gives, and is written
//! once, in the request's era, at the transport's edge.

use std::sync::Arc;

use base64::display::Base64Display;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use super::file::json_str_bound;
use super::set::{Skill, SkillSet};
use super::{DIRECTORY_MIME, SCHEME, SkillFile};
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::{Answer, Cached};

/// Which set a place is in: the snapshot served, or the files generated
/// skills made for this request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    Served,
    Generated,
}

/// A skill as `skills/list` and `skills/get` give it, by its place: the
/// URI of its `SKILL.md`, its front matter, and every file (a nested
/// skill's too) the caller may see, with digest and size.
pub(crate) struct EntryAt {
    skill: usize,
    files: Vec<usize>,
}

impl EntryAt {
    pub(super) fn new(skill: usize, files: Vec<usize>) -> Self {
        Self { skill, files }
    }

    /// About the bytes it takes in a listing: its front matter, and per
    /// file its URI as JSON writes it and what goes with it (a digest of
    /// 71 bytes, a size, the keys).
    pub(super) fn listed_bytes(&self, set: &SkillSet) -> usize {
        const PER_FILE: usize = 128;
        let files: usize = self
            .files
            .iter()
            .map(|&at| json_str_bound(set.files()[at].path()) + PER_FILE)
            .sum();
        let skill = &set.skills()[self.skill];
        skill.path().len() + skill.front_matter_bytes() + PER_FILE + files
    }

    fn in_set<'s>(&'s self, set: &'s SkillSet) -> Entry<'s> {
        Entry { set, at: self }
    }
}

/// An entry as our writer writes it and the rmcp adapter converts it.
pub(crate) struct Entry<'a> {
    set: &'a SkillSet,
    at: &'a EntryAt,
}

impl<'a> Entry<'a> {
    /// The skill.
    pub(crate) fn skill(&self) -> &'a Skill {
        &self.set.skills()[self.at.skill]
    }

    /// The files under it the caller may see.
    pub(crate) fn files(&self) -> impl ExactSizeIterator<Item = &'a SkillFile> + 'a {
        let (set, at) = (self.set, self.at);
        at.files.iter().map(move |&file| &set.files()[file])
    }
}

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let skill = self.skill();
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("uri", &format!("{SCHEME}{}", skill.skill_md()))?;
        map.serialize_entry("frontmatter", skill.front_matter())?;
        if skill.is_generated() {
            map.serialize_entry("resources", "dynamic")?;
        } else {
            map.serialize_entry("resources", &Manifest(self))?;
        }
        map.end()
    }
}

/// A skill's files, each with its digest and size.
struct Manifest<'a>(&'a Entry<'a>);

impl Serialize for Manifest<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Listed<'a> {
            uri: String,
            digest: &'a str,
            size: u64,
        }
        let files = self.0.files();
        let mut seq = s.serialize_seq(Some(files.len()))?;
        for file in files {
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
pub(crate) struct SkillList {
    set: Arc<SkillSet>,
    entries: Vec<EntryAt>,
    next: Option<String>,
    cached: Cached,
}

impl SkillList {
    pub(super) fn new(
        set: Arc<SkillSet>,
        entries: Vec<EntryAt>,
        next: Option<String>,
        cached: Cached,
    ) -> Self {
        Self {
            set,
            entries,
            next,
            cached,
        }
    }

    /// The page's skills, each with the files the caller may see.
    pub(crate) fn entries(&self) -> impl Iterator<Item = Entry<'_>> + '_ {
        self.entries.iter().map(|entry| entry.in_set(&self.set))
    }

    /// Where the next page starts, if there is one.
    pub(crate) fn next_cursor(&self) -> Option<&str> {
        self.next.as_deref()
    }
}

impl Answer for SkillList {
    fn cached(&self) -> Cached {
        self.cached
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

impl Serialize for SkillList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Entries<'a>(&'a SkillList);
        impl Serialize for Entries<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.entries())
            }
        }
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("skills", &Entries(self))?;
        if let Some(next) = self.next_cursor() {
            map.serialize_entry("nextCursor", next)?;
        }
        map.end()
    }
}

/// A `skills/get` result.
pub(crate) struct SkillResult {
    set: Arc<SkillSet>,
    entry: EntryAt,
    cached: Cached,
}

impl SkillResult {
    pub(super) fn new(set: Arc<SkillSet>, entry: EntryAt, cached: Cached) -> Self {
        Self { set, entry, cached }
    }

    /// The skill, with the files the caller may see.
    pub(crate) fn entry(&self) -> Entry<'_> {
        self.entry.in_set(&self.set)
    }
}

impl Answer for SkillResult {
    fn cached(&self) -> Cached {
        self.cached
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

impl Serialize for SkillResult {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("skill", &self.entry())?;
        map.end()
    }
}

/// A `resources/read` result: the file's bytes as read, text when they
/// are UTF-8, else base64.
pub(crate) struct ReadResult {
    set: Arc<SkillSet>,
    file: usize,
    cached: Cached,
}

impl ReadResult {
    pub(super) fn new(set: Arc<SkillSet>, file: usize, cached: Cached) -> Self {
        Self { set, file, cached }
    }

    /// The file read.
    pub(crate) fn file(&self) -> &SkillFile {
        &self.set.files()[self.file]
    }
}

impl Answer for ReadResult {
    fn cached(&self) -> Cached {
        self.cached
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }

    /// The file's contents as the file bounds them, and the fields around
    /// them: `{"contents":[{"uri":..,"mimeType":..,"text":..}]}`.
    fn size_bound(&self) -> Option<usize> {
        let file = self.file();
        let uri = json_str_bound(SCHEME) + json_str_bound(file.path());
        Some(64 + uri + json_str_bound(file.mime()) + file.json_bound())
    }
}

impl Serialize for ReadResult {
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
        map.serialize_entry("contents", &[Contents(self.file())])?;
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

/// A resource as `resources/list` and `resources/directory/read` give
/// it, by its place.
pub(crate) enum ItemAt {
    /// A file, with the skill it is the `SKILL.md` of.
    File {
        source: Source,
        file: usize,
        skill: Option<(Source, usize)>,
    },
    /// A folder, by its path under the root.
    Directory(Box<str>),
}

/// A resource as it is written.
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
pub(crate) struct ResourceList {
    served: Arc<SkillSet>,
    generated: Option<Arc<SkillSet>>,
    items: Vec<ItemAt>,
    next: Option<String>,
    cached: Cached,
}

impl ResourceList {
    pub(super) fn new(
        (served, generated): (Arc<SkillSet>, Option<Arc<SkillSet>>),
        items: Vec<ItemAt>,
        next: Option<String>,
        cached: Cached,
    ) -> Self {
        Self {
            served,
            generated,
            items,
            next,
            cached,
        }
    }

    fn set(&self, source: Source) -> &SkillSet {
        match (source, &self.generated) {
            (Source::Generated, Some(generated)) => generated,
            _ => &self.served,
        }
    }

    /// The page's resources.
    pub(crate) fn items(&self) -> impl Iterator<Item = Item<'_>> + '_ {
        self.items.iter().map(|item| match item {
            ItemAt::File {
                source,
                file,
                skill,
            } => Item::File(
                &self.set(*source).files()[*file],
                skill.map(|(source, at)| &self.set(source).skills()[at]),
            ),
            ItemAt::Directory(path) => Item::Directory(path),
        })
    }

    /// Where the next page starts, if there is one.
    pub(crate) fn next_cursor(&self) -> Option<&str> {
        self.next.as_deref()
    }
}

impl Answer for ResourceList {
    fn cached(&self) -> Cached {
        self.cached
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

impl Serialize for ResourceList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Items<'a>(&'a ResourceList);
        impl Serialize for Items<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.items())
            }
        }
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("resources", &Items(self))?;
        if let Some(next) = self.next_cursor() {
            map.serialize_entry("nextCursor", next)?;
        }
        map.end()
    }
}
