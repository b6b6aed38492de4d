//! Agent Skills served over MCP, as the `io.modelcontextprotocol/skills`
//! extension defines it: each skill a folder of files with a `SKILL.md`
//! at its root, listed by `skills/list` and `skills/get` with every file's
//! digest and size, and its files read as `skill://` resources.
//!
//! This module holds what is served, whatever it was read from: a
//! [`SkillSet`] is one snapshot of skills and their files' bytes, and
//! answers every skill and resource method from them. The bytes a client
//! reads are the bytes digested, kept in the snapshot, so a file changing
//! on disk between a listing and a read cannot break the match.

pub(crate) mod answers;
mod code;
mod embedded;
mod file;
mod generated;
mod live;
pub(crate) mod set;
mod uri;
pub(crate) mod view;
mod written;

#[cfg(test)]
mod tests;

pub use code::{DynamicSkill, DynamicSkillBuilder};
pub(crate) use embedded::registered as embedded_skills;
pub use embedded::{EmbeddedEntry, EmbeddedFile, EmbeddedSkill};
pub(crate) use file::SkillFile;
pub use generated::SkillContent;
pub(crate) use live::LiveSkills;
pub(crate) use set::SkillSet;
pub(crate) use uri::SCHEME;

/// The `skill://` URI of the file or folder at `path` under the root.
pub(crate) fn uri(path: &str) -> String {
    format!("{SCHEME}{path}")
}

/// The extension's identifier, its key under `capabilities.extensions`.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/skills";

/// The MIME type of a directory resource.
pub(crate) const DIRECTORY_MIME: &str = "inode/directory";

/// The file every skill has at its root.
pub(crate) const SKILL_MD: &str = "SKILL.md";
