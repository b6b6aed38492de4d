//! Skills defined in code ([`DynamicSkill`]): a name, a description, more
//! front matter, instructions and files given as bytes, checked when
//! built. Their `SKILL.md` is written from the front matter and the
//! instructions, so what a host reads agrees with the entry.

use serde_json::{Map, Value};

use super::set::Skill;
use super::{SKILL_MD, SkillFile};
use crate::caller::is_valid_scope;
use crate::error::CatalogError;

/// The longest skill name.
const MAX_NAME: usize = 64;

/// The longest description, in characters.
const MAX_DESCRIPTION: usize = 1024;

/// The most files and bytes of one skill, as for skills from folders.
const MAX_FILES: usize = 512;
const MAX_BYTES: usize = 16 * 1024 * 1024;

/// An Agent Skill defined in code, served with
/// [`Server::skill`](crate::Server::skill) beside any skills from folders.
///
/// ```
/// use mcp_prompts::{DynamicSkill, Server};
///
/// let skill = DynamicSkill::builder("team/release-notes")
///     .description("Write release notes the way this team does")
///     .field("license", "MIT")
///     .instructions("# Release notes\n\nGroup the changes as `templates/entry.md` does.\n")
///     .file("templates/entry.md", "text/markdown", "## {version}\n")
///     .build()?;
/// // Served beside the binary's prompts and any skill folders.
/// let server = Server::new("team", "1.0").skill(skill);
/// # let _ = server;
/// # Ok::<(), mcp_prompts::CatalogError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DynamicSkill {
    path: String,
    front_matter: Map<String, Value>,
    scopes: Vec<String>,
    /// Each file's path within the skill, MIME type and bytes; its
    /// `SKILL.md` first.
    files: Vec<(String, String, Vec<u8>)>,
}

/// Builds a [`DynamicSkill`]; see [`DynamicSkill::builder`].
#[derive(Clone, Debug)]
#[must_use]
pub struct DynamicSkillBuilder {
    path: String,
    description: Option<String>,
    fields: Map<String, Value>,
    instructions: String,
    files: Vec<(String, String, Vec<u8>)>,
    scopes: Vec<String>,
}

impl DynamicSkill {
    /// A skill served at `path` (`release-notes`, or under a prefix,
    /// `team/release-notes`), whose last segment is its name: 1 to 64
    /// lowercase ASCII letters, digits and single inner hyphens (skills
    /// from folders may use other scripts' letters too).
    pub fn builder(path: impl Into<String>) -> DynamicSkillBuilder {
        DynamicSkillBuilder {
            path: path.into(),
            description: None,
            fields: Map::new(),
            instructions: String::new(),
            files: Vec::new(),
            scopes: Vec::new(),
        }
    }

    /// The skill's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The skill and its files, as served.
    pub(crate) fn parts(&self) -> (Skill, Vec<SkillFile>) {
        let name = self.path.rsplit('/').next().unwrap_or_default();
        let description = self
            .front_matter
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let skill = Skill::new(
            self.path.as_str(),
            self.front_matter.clone(),
            name,
            description,
        )
        .limited_to(self.scopes.clone());
        let files = self
            .files
            .iter()
            .map(|(path, mime, bytes)| {
                SkillFile::new(
                    format!("{}/{path}", self.path),
                    bytes.clone(),
                    mime.as_str(),
                )
            })
            .collect();
        (skill, files)
    }
}

impl DynamicSkillBuilder {
    /// What the skill is for, which hosts show to choose it: 1 to 1,024
    /// characters.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Another front matter field (`license`, `metadata`, a field of your
    /// own), served as given; `license`, `allowed-tools` and
    /// `compatibility` must be text, `metadata` text values.
    pub fn field(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.fields.insert(key.into(), value.into());
        self
    }

    /// The instructions: the `SKILL.md` text after its front matter.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = instructions.into();
        self
    }

    /// A file of the skill at `path` within it (`templates/entry.md`),
    /// of MIME type `mime`.
    pub fn file(
        mut self,
        path: impl Into<String>,
        mime: impl Into<String>,
        bytes: impl Into<Vec<u8>>,
    ) -> Self {
        self.files.push((path.into(), mime.into(), bytes.into()));
        self
    }

    /// Shows the skill only to remote callers granted every one of
    /// `scopes`, as `scopes` does a prompt.
    pub fn scopes<I: IntoIterator<Item = S>, S: Into<String>>(mut self, scopes: I) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The skill, once its path, name, description, fields, files and
    /// limits are checked; every problem found otherwise.
    pub fn build(self) -> Result<DynamicSkill, CatalogError> {
        let mut problems = Vec::new();
        let at = format!("skill `{}`", crate::error::excerpt(&self.path));
        let segments: Vec<&str> = self.path.split('/').collect();
        if segments
            .iter()
            .any(|s| s.is_empty() || *s == "." || *s == ".." || s.contains(['%', '?', '#', '\\']))
        {
            problems.push(format!(
                "{at}: a path is `/`-separated names, none empty, `.` or `..`"
            ));
        }
        let name = segments.last().copied().unwrap_or_default();
        if !is_name(name) {
            problems.push(format!(
                "{at}: `{}` is not a skill name: 1 to {MAX_NAME} lowercase letters, digits and single hyphens, not at either end",
                crate::error::excerpt(name)
            ));
        }
        let description = self.description.unwrap_or_default();
        if description.trim().is_empty() || description.chars().count() > MAX_DESCRIPTION {
            problems.push(format!(
                "{at}: a description of 1 to {MAX_DESCRIPTION} characters is needed"
            ));
        }
        for (key, value) in &self.fields {
            let fine = match key.as_str() {
                "name" | "description" => false,
                "license" | "allowed-tools" | "compatibility" => value.is_string(),
                "metadata" => value
                    .as_object()
                    .is_some_and(|m| m.values().all(Value::is_string)),
                _ => true,
            };
            if !fine {
                problems.push(format!("{at}: the field `{key}` is not one it may have so"));
            }
        }
        if let Some(bad) = self.scopes.iter().find(|s| !is_valid_scope(s)) {
            problems.push(format!(
                "{at}: `{}` is not a scope",
                crate::error::excerpt(bad)
            ));
        }
        let mut paths: Vec<&str> = self.files.iter().map(|(p, _, _)| p.as_str()).collect();
        paths.sort_unstable();
        let duplicate = paths.windows(2).any(|w| w[0] == w[1]);
        let bad_file = paths
            .iter()
            .any(|p| *p == SKILL_MD || p.split('/').any(|s| s.is_empty() || s == "." || s == ".."));
        if duplicate || bad_file {
            problems.push(format!(
                "{at}: file paths are distinct relative paths, none its `SKILL.md`"
            ));
        }
        let mut front_matter = Map::new();
        front_matter.insert("name".into(), name.into());
        front_matter.insert("description".into(), description.clone().into());
        front_matter.extend(self.fields);
        let skill_md = skill_md(&front_matter, &self.instructions);
        let bytes = skill_md.len() + self.files.iter().map(|(_, _, b)| b.len()).sum::<usize>();
        if self.files.len() + 1 > MAX_FILES || bytes > MAX_BYTES {
            problems.push(format!(
                "{at}: a skill holds at most {MAX_FILES} files and 16 MiB"
            ));
        }
        if !problems.is_empty() {
            return Err(CatalogError { problems });
        }
        let mut files = vec![(
            SKILL_MD.to_owned(),
            "text/markdown".to_owned(),
            skill_md.into_bytes(),
        )];
        files.extend(self.files);
        Ok(DynamicSkill {
            path: self.path,
            front_matter,
            scopes: self.scopes,
            files,
        })
    }
}

/// Whether `name` follows the Agent Skills rules, in ASCII.
fn is_name(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len())
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A `SKILL.md`: the front matter, one field a line, each value written as
/// JSON (which YAML reads as the same value), then the instructions.
fn skill_md(front_matter: &Map<String, Value>, instructions: &str) -> String {
    let mut text = String::from("---\n");
    for (key, value) in front_matter {
        // Keys and values as JSON text: quoted, escaped, on one line.
        text.push_str(&Value::String(key.clone()).to_string());
        text.push_str(": ");
        text.push_str(&value.to_string());
        text.push('\n');
    }
    text.push_str("---\n");
    text.push_str(instructions);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skill_from_code_is_checked_and_its_skill_md_written() {
        let skill = DynamicSkill::builder("team/notes")
            .description("Take notes")
            .field("metadata", serde_json::json!({"owner": "me"}))
            .instructions("Write them down.\n")
            .file("style.md", "text/markdown", "Short.")
            .build()
            .unwrap();
        let (served, files) = skill.parts();
        assert_eq!(
            (served.path(), served.name(), served.description()),
            ("team/notes", "notes", "Take notes")
        );
        assert_eq!(files[0].path(), "team/notes/SKILL.md");
        let text = files[0].text().unwrap();
        assert!(
            text.starts_with("---\n\"description\": \"Take notes\"\n"),
            "{text}"
        );
        assert!(text.ends_with("---\nWrite them down.\n"), "{text}");
        for bad in [
            DynamicSkill::builder("Notes").description("d").build(),
            DynamicSkill::builder("a//notes").description("d").build(),
            DynamicSkill::builder("notes").build(),
            DynamicSkill::builder("notes")
                .description("d")
                .field("license", 3)
                .build(),
            DynamicSkill::builder("notes")
                .description("d")
                .file("SKILL.md", "text/markdown", "x")
                .build(),
            DynamicSkill::builder("notes")
                .description("d")
                .file("../x", "text/plain", "x")
                .build(),
        ] {
            assert!(bad.is_err());
        }
    }
}
