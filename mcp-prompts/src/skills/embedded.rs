//! Skills embedded at compile time by `include_skill!`, gathered from the
//! whole binary by `inventory`: read, checked and digested when the crate
//! compiled, served as they are.

use serde_json::{Map, Value};

use super::code::DynamicSkill;
use super::file::SkillFile;
use super::set::Skill;

/// What `include_skill!` submits: a skill folder's skills (its own and
/// any nested in it) and its files.
#[doc(hidden)]
pub struct EmbeddedSkill {
    pub skills: &'static [EmbeddedEntry],
    pub files: &'static [EmbeddedFile],
}

/// One skill of an embedded folder.
#[doc(hidden)]
pub struct EmbeddedEntry {
    /// Its path: the folder's name, then any nested path.
    pub path: &'static str,
    /// Its front matter, as JSON text.
    pub front_matter: &'static str,
    pub scopes: &'static [&'static str],
}

/// One file of an embedded folder, with what was worked out of it.
#[doc(hidden)]
pub struct EmbeddedFile {
    pub path: &'static str,
    pub bytes: &'static [u8],
    pub digest: &'static str,
    pub mime: &'static str,
    /// Whether the bytes are UTF-8.
    pub text: bool,
}

inventory::collect!(EmbeddedSkill);

/// Every skill `include_skill!` embedded in this binary.
pub(crate) fn registered() -> Vec<DynamicSkill> {
    inventory::iter::<EmbeddedSkill>
        .into_iter()
        .map(|embedded| {
            let skills = embedded.skills.iter().map(skill).collect();
            let files = embedded
                .files
                .iter()
                .map(|f| SkillFile::embedded(f.path, f.bytes, f.digest, f.mime, f.text))
                .collect();
            DynamicSkill::from_parts(skills, files)
        })
        .collect()
}

fn skill(entry: &EmbeddedEntry) -> Skill {
    // Written by the macro from a checked front matter.
    let front_matter: Map<String, Value> =
        serde_json::from_str(entry.front_matter).unwrap_or_default();
    // As from folders: the front matter's name (its folder's exactly, as
    // the macro checked).
    let name = front_matter
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let description = front_matter
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    Skill::new(entry.path, front_matter, name, description)
        .limited_to(entry.scopes.iter().map(|s| (*s).to_owned()).collect())
}
