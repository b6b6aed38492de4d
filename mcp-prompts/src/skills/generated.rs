//! A generated skill's content ([`SkillContent`]), made by its closure at
//! each read, and how it becomes the skill's files: checked, limited, its
//! `SKILL.md` written from the front matter it was built with.

use std::sync::Arc;

use mcp_prompts_template::rules::is_skill_path_segment;
use mcp_prompts_template::skill::{MAX_BYTES, MAX_FILES};
use serde_json::{Map, Value};

use super::written::skill_md;
use super::{SKILL_MD, SkillFile};

/// Makes a generated skill's content, at each read.
pub(crate) type Generate = Arc<dyn Fn() -> SkillContent + Send + Sync>;

/// What a generated skill holds when it is read: the instructions of its
/// `SKILL.md` (after the front matter, which stays as built) and its
/// other files. See [`DynamicSkillBuilder::generated`](crate::DynamicSkillBuilder::generated).
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct SkillContent {
    pub(super) instructions: String,
    pub(super) files: Vec<(String, String, Vec<u8>)>,
}

impl SkillContent {
    /// Content whose `SKILL.md` holds `instructions` after its front
    /// matter.
    pub fn new(instructions: impl Into<String>) -> Self {
        Self {
            instructions: instructions.into(),
            files: Vec::new(),
        }
    }

    /// A file at `path` within the skill, of MIME type `mime`. If a path
    /// is not a plain relative one, is `SKILL.md` or is given twice, or
    /// the files exceed 512 and 16 MiB, the files are left out (the
    /// `SKILL.md` is served), with a warning.
    pub fn file(
        mut self,
        path: impl Into<String>,
        mime: impl Into<String>,
        bytes: impl Into<Vec<u8>>,
    ) -> Self {
        self.files.push((path.into(), mime.into(), bytes.into()));
        self
    }
}

/// Whether `files` have distinct, plain relative paths, none `SKILL.md`.
pub(super) fn usable_paths(files: &[(String, String, Vec<u8>)]) -> bool {
    let mut paths: Vec<&str> = files.iter().map(|(p, _, _)| p.as_str()).collect();
    paths.sort_unstable();
    let duplicate = paths.windows(2).any(|w| w[0] == w[1]);
    let bad = paths
        .iter()
        .any(|p| *p == SKILL_MD || !p.split('/').all(is_skill_path_segment));
    !duplicate && !bad
}

/// The files of the skill at `path`: its `SKILL.md`, then `files`.
pub(super) fn files_of(
    path: &str,
    skill_md: String,
    files: Vec<(String, String, Vec<u8>)>,
) -> Vec<SkillFile> {
    std::iter::once((
        SKILL_MD.to_owned(),
        "text/markdown".to_owned(),
        skill_md.into_bytes(),
    ))
    .chain(files)
    .map(|(file, mime, bytes)| SkillFile::new(format!("{path}/{file}"), bytes, mime))
    .collect()
}

/// A generated skill's files as they are now: its `SKILL.md` from its
/// front matter and the instructions made, then the files made, those
/// with unusable paths left out (with a warning), as are all but its
/// `SKILL.md` when they exceed the limits.
pub(crate) fn generate(
    path: &str,
    front_matter: &Map<String, Value>,
    generate: &Generate,
) -> Vec<SkillFile> {
    // A closure that panics serves nothing this time; the server goes on.
    let Ok(content) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| generate())) else {
        tracing::error!(
            skill = %path,
            "a generated skill's closure panicked; its files are not served this time"
        );
        return Vec::new();
    };
    let mut files = content.files;
    if !usable_paths(&files) {
        tracing::warn!(
            skill = %path,
            "a generated skill made a file with an unusable path; its files are left out"
        );
        files.clear();
    }
    let skill_md = skill_md(front_matter, &content.instructions);
    let bytes = (skill_md.len() + files.iter().map(|(_, _, b)| b.len()).sum::<usize>()) as u64;
    if files.len() + 1 > MAX_FILES || bytes > MAX_BYTES {
        tracing::warn!(
            skill = %path,
            "a generated skill made more than {MAX_FILES} files or 16 MiB; its files are left out"
        );
        files.clear();
    }
    files_of(path, skill_md, files)
}
