//! One snapshot of skills and their files, and the lookups every method
//! makes in it: a skill by its `SKILL.md`'s URI, a file by its URI, a
//! directory's direct children.

use std::ops::Range;

use serde_json::{Map, Value};

use super::SKILL_MD;
use super::file::SkillFile;
use super::generated::Generate;
use super::uri::path_of;
use crate::caller::Access;

/// A skill: its path under the root and its front matter.
#[derive(Clone)]
pub(crate) struct Skill {
    /// `/`-separated, under the root: `acme/billing/refunds`; the last
    /// segment is its name.
    path: Box<str>,
    /// The whole front matter, as a JSON object.
    front_matter: Map<String, Value>,
    /// How many bytes the front matter takes as JSON: measured once, for
    /// the listing's pages, which stop at a size.
    front_matter_bytes: usize,
    name: Box<str>,
    description: Box<str>,
    /// The scopes a remote caller must all hold to see it.
    scopes: Box<[String]>,
    /// For a generated skill, what makes its files at each read.
    generate: Option<Generate>,
}

impl Skill {
    /// The skill at `path` (its folder under the root), with its front
    /// matter as JSON and the `name` and `description` read from it.
    pub(crate) fn new(
        path: impl Into<Box<str>>,
        front_matter: Map<String, Value>,
        name: impl Into<Box<str>>,
        description: impl Into<Box<str>>,
    ) -> Self {
        let front_matter_bytes = serde_json::to_vec(&front_matter).map_or(0, |json| json.len());
        Self {
            path: path.into(),
            front_matter,
            front_matter_bytes,
            name: name.into(),
            description: description.into(),
            scopes: Box::default(),
            generate: None,
        }
    }

    /// Its files made by `generate` at each read, none kept.
    pub(crate) fn generated_by(mut self, generate: Generate) -> Self {
        self.generate = Some(generate);
        self
    }

    /// Whether its files are made at each read (listed as `"dynamic"`).
    pub(crate) fn is_generated(&self) -> bool {
        self.generate.is_some()
    }

    /// Its files as they are now, if it is generated.
    pub(crate) fn generate(&self) -> Option<Vec<SkillFile>> {
        self.generate
            .as_ref()
            .map(|generate| super::generated::generate(self.path(), &self.front_matter, generate))
    }

    /// Shown only to remote callers holding every one of `scopes` (the
    /// local user sees every skill).
    pub(crate) fn limited_to(mut self, scopes: Vec<String>) -> Self {
        self.scopes = scopes.into();
        self
    }

    /// The scopes a remote caller must all hold to see it.
    pub(crate) fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether some callers may not see it.
    pub(crate) fn is_restricted(&self) -> bool {
        !self.scopes.is_empty()
    }

    /// Whether a request served under `access` may see it, as for prompts:
    /// the local user sees it; a remote caller holding its scopes does; a
    /// remote request proving no caller sees only unrestricted skills.
    pub(crate) fn allows(&self, access: &Access) -> bool {
        match access {
            _ if self.scopes.is_empty() => true,
            Access::Local => true,
            Access::Remote(None) => false,
            Access::Remote(Some(caller)) => self.scopes.iter().all(|s| caller.has_scope(s)),
        }
    }

    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    /// How many bytes its front matter takes as JSON.
    pub(crate) fn front_matter_bytes(&self) -> usize {
        self.front_matter_bytes
    }

    pub(crate) fn front_matter(&self) -> &Map<String, Value> {
        &self.front_matter
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn description(&self) -> &str {
        &self.description
    }

    /// The path of its `SKILL.md`.
    pub(crate) fn skill_md(&self) -> String {
        format!("{}/{SKILL_MD}", self.path)
    }
}

/// The skills served at one moment, with every file's bytes.
pub(crate) struct SkillSet {
    /// In path order.
    skills: Vec<Skill>,
    /// In path order, so that a folder's files are one run of them.
    files: Vec<SkillFile>,
    /// Entries per listing page; 0: one page.
    page_size: usize,
}

/// A direct child of a directory.
pub(crate) enum Child<'a> {
    /// A file, by its place among the set's files.
    File(usize),
    /// A subfolder, by its path under the root.
    Directory(&'a str),
}

impl SkillSet {
    /// `skills` and the files they hold (a nested skill's files are also
    /// its enclosing skill's, by their paths), listed `page_size` to a
    /// page (0: one page).
    pub(crate) fn new(mut skills: Vec<Skill>, mut files: Vec<SkillFile>, page_size: usize) -> Self {
        skills.sort_by(|a, b| a.path.cmp(&b.path));
        files.sort_by(|a, b| a.path().cmp(b.path()));
        Self {
            skills,
            files,
            page_size,
        }
    }

    pub(crate) fn skills(&self) -> &[Skill] {
        &self.skills
    }

    pub(crate) fn files(&self) -> &[SkillFile] {
        &self.files
    }

    pub(crate) fn page_size(&self) -> usize {
        self.page_size
    }

    /// Whether a client would see the same as in `other`: the same
    /// skills with the same front matter, the same files with the same
    /// bytes.
    #[cfg(feature = "files")]
    pub(crate) fn same_as(&self, other: &Self) -> bool {
        let same_skill =
            |a: &Skill, b: &Skill| a.path == b.path && a.front_matter == b.front_matter;
        let same_file = |a: &SkillFile, b: &SkillFile| {
            a.path() == b.path() && a.digest() == b.digest() && a.mime() == b.mime()
        };
        self.skills.len() == other.skills.len()
            && self.files.len() == other.files.len()
            && self
                .skills
                .iter()
                .zip(&other.skills)
                .all(|(a, b)| same_skill(a, b))
            && self
                .files
                .iter()
                .zip(&other.files)
                .all(|(a, b)| same_file(a, b))
    }

    /// The files under the folder at `path`, its subfolders' included.
    pub(crate) fn files_under(&self, path: &str) -> &[SkillFile] {
        &self.files[self.places_under(path)]
    }

    /// The places among the files of those under the folder at `path`.
    pub(crate) fn places_under(&self, path: &str) -> Range<usize> {
        let prefix = format!("{path}/");
        let start = self.files.partition_point(|f| f.path() < prefix.as_str());
        let len = self.files[start..]
            .iter()
            .take_while(|f| f.path().starts_with(&prefix))
            .count();
        start..start + len
    }

    /// The skill at `path`.
    fn skill(&self, path: &str) -> Option<&Skill> {
        self.skill_place(path).map(|at| &self.skills[at])
    }

    /// The place among the skills of the one at `path`.
    fn skill_place(&self, path: &str) -> Option<usize> {
        self.skills.binary_search_by(|s| (*s.path).cmp(path)).ok()
    }

    /// The generated skill whose folder holds the file or folder at `uri`
    /// (or is it), when that is the nearest skill around it.
    pub(crate) fn generated_holding(&self, uri: &str) -> Option<&Skill> {
        let path = path_of(uri)?;
        std::iter::once(path)
            .chain(path.rmatch_indices('/').map(|(at, _)| &path[..at]))
            .find_map(|folder| self.skill(folder))
            .filter(|skill| skill.is_generated())
    }

    /// The place among the skills of the one whose `SKILL.md` is at `uri`.
    pub(crate) fn skill_place_at(&self, uri: &str) -> Option<usize> {
        self.skill_place(path_of(uri)?.strip_suffix(SKILL_MD)?.strip_suffix('/')?)
    }

    /// The skill a `SKILL.md` file belongs to as its own.
    pub(crate) fn skill_of_skill_md(&self, file: &SkillFile) -> Option<&Skill> {
        self.skill_place_of_skill_md(file)
            .map(|at| &self.skills[at])
    }

    /// The place among the skills of the one a `SKILL.md` file belongs to
    /// as its own.
    pub(crate) fn skill_place_of_skill_md(&self, file: &SkillFile) -> Option<usize> {
        let folder = file.path().strip_suffix(SKILL_MD)?.strip_suffix('/')?;
        self.skill_place(folder)
    }

    /// The file at `uri`.
    #[cfg(test)]
    pub(crate) fn file_at(&self, uri: &str) -> Option<&SkillFile> {
        self.file_place_at(uri).map(|at| &self.files[at])
    }

    /// The place among the files of the one at `uri`.
    pub(crate) fn file_place_at(&self, uri: &str) -> Option<usize> {
        let path = path_of(uri)?;
        self.files.binary_search_by(|f| f.path().cmp(path)).ok()
    }

    /// The direct children of the directory at `uri`: a skill's folder or
    /// a folder within one, never a folder that only leads to skills.
    pub(crate) fn directory_at(&self, uri: &str) -> Option<Vec<Child<'_>>> {
        let path = path_of(uri)?;
        // In a skill: the folder is one, or lies below one.
        let in_skill = std::iter::once(path)
            .chain(path.rmatch_indices('/').map(|(at, _)| &path[..at]))
            .any(|folder| self.skill(folder).is_some());
        let places = self.places_under(path);
        if !in_skill || places.is_empty() {
            return None;
        }
        let mut children: Vec<Child<'_>> = Vec::new();
        for at in places {
            let file = &self.files[at];
            let rest = &file.path()[path.len() + 1..];
            match rest.split_once('/') {
                None => children.push(Child::File(at)),
                Some((folder, _)) => {
                    let folder = &file.path()[..path.len() + 1 + folder.len()];
                    // A folder's files are one run: its entry is made once.
                    if !matches!(children.last(), Some(Child::Directory(last)) if *last == folder) {
                        children.push(Child::Directory(folder));
                    }
                }
            }
        }
        Some(children)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A set of two skills, one nested in the other, under a prefix.
    pub(crate) fn sample() -> SkillSet {
        let matter = |name: &str| {
            let json =
                serde_json::json!({"name": name, "description": format!("The {name} skill")});
            json.as_object().unwrap().clone()
        };
        let skills = vec![
            Skill::new(
                "acme/billing",
                matter("billing"),
                "billing",
                "The billing skill",
            ),
            Skill::new(
                "acme/billing/refunds",
                matter("refunds"),
                "refunds",
                "The refunds skill",
            ),
        ];
        let file = |path: &str, bytes: &[u8]| SkillFile::new(path, bytes.to_vec(), "text/plain");
        let files = vec![
            file("acme/billing/SKILL.md", b"---\nname: billing\n---\n"),
            file("acme/billing/templates/invoice.md", b"Invoice"),
            file("acme/billing/templates/letters/late.md", b"Late"),
            file(
                "acme/billing/refunds/SKILL.md",
                b"---\nname: refunds\n---\n",
            ),
            file("acme/billing/refunds.txt", b"not the folder"),
        ];
        SkillSet::new(skills, files, 0)
    }

    #[test]
    fn a_skill_holds_its_nested_skills_files_and_no_siblings() {
        fn paths(files: &[SkillFile]) -> Vec<&str> {
            files.iter().map(SkillFile::path).collect()
        }
        let set = sample();
        assert_eq!(
            paths(set.files_under("acme/billing")),
            [
                "acme/billing/SKILL.md",
                "acme/billing/refunds.txt",
                "acme/billing/refunds/SKILL.md",
                "acme/billing/templates/invoice.md",
                "acme/billing/templates/letters/late.md",
            ]
        );
        assert_eq!(
            paths(set.files_under("acme/billing/refunds")),
            ["acme/billing/refunds/SKILL.md"]
        );
    }

    #[test]
    fn lookups_take_exact_uris() {
        let set = sample();
        assert_eq!(
            set.skill_place_at("skill://acme/billing/SKILL.md")
                .map(|at| set.skills()[at].name()),
            Some("billing")
        );
        assert!(
            set.skill_place_at("skill://acme/billing/templates/invoice.md")
                .is_none()
        );
        assert!(set.skill_place_at("skill://billing/SKILL.md").is_none());
        assert!(
            set.file_at("skill://acme/billing/templates/invoice.md")
                .is_some()
        );
        assert!(
            set.file_at("skill://acme/billing/templates/../SKILL.md")
                .is_none()
        );
        assert!(set.file_at("skill://acme/billing/templates").is_none());
    }

    #[test]
    fn directories_are_folders_of_skills_with_their_direct_children() {
        let set = sample();
        let names = |uri: &str| {
            set.directory_at(uri).map(|children| {
                children
                    .iter()
                    .map(|child| match child {
                        Child::File(at) => set.files()[*at].path().to_owned(),
                        Child::Directory(path) => format!("{path}/"),
                    })
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            names("skill://acme/billing").unwrap(),
            [
                "acme/billing/SKILL.md",
                "acme/billing/refunds.txt",
                "acme/billing/refunds/",
                "acme/billing/templates/",
            ]
        );
        assert_eq!(
            names("skill://acme/billing/templates").unwrap(),
            [
                "acme/billing/templates/invoice.md",
                "acme/billing/templates/letters/"
            ]
        );
        // Above every skill, a file, nothing, and a trailing slash: none.
        for uri in [
            "skill://acme",
            "skill://acme/billing/SKILL.md",
            "skill://acme/billing/none",
            "skill://acme/billing/templates/",
        ] {
            assert!(names(uri).is_none(), "{uri}");
        }
    }
}
