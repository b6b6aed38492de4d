//! A snapshot of skills as one caller sees it, and the queries of the
//! skill and resource methods answered from it. Each answer holds the
//! snapshot it was drawn from (an `Arc`), so that it can be written later,
//! at the transport's edge, once the request's handler is done.

use std::cell::OnceCell;
use std::ops::Range;
use std::sync::Arc;

use super::answers::{EntryAt, ItemAt, ReadResult, ResourceList, SkillList, SkillResult, Source};
use super::set::{Child, Skill, SkillSet};
use crate::caller::Access;
use crate::error::{Error, excerpt};
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::Cached;
use crate::protocol::cursor;

/// `Resource not found`, the code of revisions 2024-11-05 to 2025-11-25;
/// 2026-07-28 uses -32602 instead, and must not send this one.
pub(super) const RESOURCE_NOT_FOUND: i32 = -32002;

/// About how many bytes a `skills/list` page holds at most (past its
/// first entry): well under a megabyte, as the skills extension's pages
/// are meant to be.
const PAGE_BYTES: usize = 512 * 1024;

/// A snapshot as one caller sees it: a skill limited to scopes the
/// caller lacks is hidden, with every skill nested in it and every file
/// in its folder, and answers exactly as one that does not exist.
pub(crate) struct View {
    set: Arc<SkillSet>,
    /// The places among the skills of those hidden from this caller.
    hidden: Vec<usize>,
    /// Whether what is seen depends on who asks: 2026-07-28 results are
    /// then `private`.
    pub(super) cached: Cached,
    /// The files of the generated skills this request reads, made once.
    generated: OnceCell<Arc<SkillSet>>,
}

impl SkillSet {
    /// The skills and files `access` may see.
    pub(crate) fn view(self: &Arc<Self>, access: &Access) -> View {
        let skills = self.skills();
        let hidden = (0..skills.len())
            .filter(|&at| !skills[at].allows(access))
            .collect();
        let scoped = skills.iter().any(Skill::is_restricted);
        View {
            set: Arc::clone(self),
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

impl View {
    /// Whether the file or folder at `path` lies in a hidden skill's folder.
    fn hides(&self, path: &str) -> bool {
        self.hidden.iter().any(|&at| {
            let folder = self.set.skills()[at].path();
            path.strip_prefix(folder)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }

    /// The places of the skills this caller sees.
    pub(super) fn skills(&self) -> Vec<usize> {
        let skills = self.set.skills();
        (0..skills.len())
            .filter(|&at| !self.hides(skills[at].path()))
            .collect()
    }

    /// The skill at place `skill`, with the files under it this caller sees.
    fn entry(&self, skill: usize) -> EntryAt {
        let path = self.set.skills()[skill].path();
        let files = self
            .set
            .places_under(path)
            .filter(|&at| !self.hides(self.set.files()[at].path()))
            .collect();
        EntryAt::new(skill, files)
    }

    /// The file at place `file` of `source`, with the skill it is the
    /// `SKILL.md` of, if any.
    fn item(&self, source: Source, file: usize) -> ItemAt {
        let set = self.set_of(source);
        let file_ref = &set.files()[file];
        let skill = self
            .set
            .skill_place_of_skill_md(file_ref)
            .map(|at| (Source::Served, at))
            .or_else(|| {
                let made = self.generated.get()?;
                made.skill_place_of_skill_md(file_ref)
                    .map(|at| (Source::Generated, at))
            });
        ItemAt::File {
            source,
            file,
            skill,
        }
    }

    fn set_of(&self, source: Source) -> &SkillSet {
        match source {
            Source::Served => &self.set,
            Source::Generated => self.generated.get().unwrap_or(&self.set),
        }
    }

    /// The files `skills` (generated ones) hold now, made once a request.
    fn generated<'v>(&'v self, skills: impl Iterator<Item = &'v Skill>) -> &'v Arc<SkillSet> {
        self.generated.get_or_init(|| {
            let (mut made, mut files) = (Vec::new(), Vec::new());
            for skill in skills.filter(|s| !self.hides(s.path())) {
                files.extend(skill.generate().unwrap_or_default());
                made.push(skill.clone());
            }
            Arc::new(SkillSet::new(made, files, self.set.page_size()))
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
    fn holding(&self, uri: &str) -> (Source, &Arc<SkillSet>) {
        match self.set.generated_holding(uri) {
            Some(skill) => (Source::Generated, self.generated(std::iter::once(skill))),
            None => (Source::Served, &self.set),
        }
    }

    /// The generated set, if this request made one.
    fn made(&self) -> Option<Arc<SkillSet>> {
        self.generated.get().cloned()
    }

    /// `skills/list`: the page `cursor` points at, whole entries only. A
    /// page also ends once its entries take about [`PAGE_BYTES`] (after
    /// at least one): a skill's entry lists every file, so fifty skills of
    /// 512 files with long paths would make one page of a hundred
    /// megabytes. Its cursor is where the next page starts.
    pub(crate) fn list(&self, cursor: Option<&str>) -> Result<SkillList, Error> {
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
        for &skill in skills[start..].iter().take(most) {
            if !entries.is_empty() && bytes >= PAGE_BYTES {
                break;
            }
            let entry = self.entry(skill);
            bytes += entry.listed_bytes(&self.set);
            entries.push(entry);
        }
        let end = start + entries.len();
        let next = (end < skills.len()).then(|| cursor::encode(end));
        Ok(SkillList::new(
            Arc::clone(&self.set),
            entries,
            next,
            self.cached,
        ))
    }

    /// `skills/get`: the skill whose `SKILL.md` is at `uri`.
    pub(crate) fn get(&self, uri: &str) -> Result<SkillResult, Error> {
        let found = self
            .set
            .skill_place_at(uri)
            .filter(|&at| !self.hides(self.set.skills()[at].path()));
        match found {
            Some(skill) => Ok(SkillResult::new(
                Arc::clone(&self.set),
                self.entry(skill),
                self.cached,
            )),
            None => Err(Error::invalid_params(format!(
                "Unknown skill: {}",
                excerpt(uri)
            ))),
        }
    }

    /// `resources/read` of the file at `uri`; an unknown one is refused
    /// with the code `version` has for it.
    pub(crate) fn read(&self, uri: &str, version: ProtocolVersion) -> Result<ReadResult, Error> {
        let (_, holding) = self.holding(uri);
        let found = holding
            .file_place_at(uri)
            .filter(|&at| !self.hides(holding.files()[at].path()));
        match found {
            Some(file) => Ok(ReadResult::new(
                Arc::clone(holding),
                file,
                self.cached_from(holding),
            )),
            None => {
                let message = format!("Resource not found: {}", excerpt(uri));
                let error = if version.is_modern() {
                    Error::invalid_params(message)
                } else {
                    Error::new(RESOURCE_NOT_FOUND, message)
                };
                // The URI asked for, as SEP-2164 says (and earlier
                // revisions' examples show), cut as every echo of client input is.
                Err(error.with_detail("uri", excerpt(uri)))
            }
        }
    }

    /// `resources/list`: every file, for clients that know no skills; of
    /// a generated skill its `SKILL.md` as made now (its other files vary,
    /// and would move the pages).
    pub(crate) fn resources(&self, cursor: Option<&str>) -> Result<ResourceList, Error> {
        let made = self.generated(self.set.skills().iter().filter(|s| s.is_generated()));
        let made_skill_md = (0..made.files().len())
            .filter(|&at| made.skill_of_skill_md(&made.files()[at]).is_some())
            .map(|at| (Source::Generated, at));
        let served = (0..self.set.files().len()).map(|at| (Source::Served, at));
        let mut files: Vec<(Source, usize)> = served
            .chain(made_skill_md)
            .filter(|&(source, at)| !self.hides(self.set_of(source).files()[at].path()))
            .collect();
        if !made.skills().is_empty() {
            files.sort_by(|a, b| {
                let path =
                    |(source, at): &(Source, usize)| self.set_of(*source).files()[*at].path();
                path(a).cmp(path(b))
            });
        }
        let (range, next) = page(files.len(), self.set.page_size(), cursor)?;
        let items = files[range]
            .iter()
            .map(|&(source, at)| self.item(source, at))
            .collect();
        let cached = self.cached_from(made);
        Ok(ResourceList::new(
            (Arc::clone(&self.set), self.made()),
            items,
            next,
            cached,
        ))
    }

    /// `resources/directory/read`: the direct children of the directory
    /// at `uri`, a page at a time.
    pub(crate) fn read_directory(
        &self,
        uri: &str,
        cursor: Option<&str>,
    ) -> Result<ResourceList, Error> {
        let (source, holding) = self.holding(uri);
        let children = holding.directory_at(uri).map(|children| {
            children
                .into_iter()
                .filter(|child| match *child {
                    Child::File(at) => !self.hides(holding.files()[at].path()),
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
                Child::File(at) => self.item(source, at),
                Child::Directory(path) => ItemAt::Directory(path.into()),
            })
            .collect();
        let cached = self.cached_from(holding);
        Ok(ResourceList::new(
            (Arc::clone(&self.set), self.made()),
            items,
            next,
            cached,
        ))
    }
}

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
