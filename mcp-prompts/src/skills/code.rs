//! Skills defined in code ([`DynamicSkill`]): a name, a description, more
//! front matter, instructions and files given as bytes, checked when
//! built; or instructions and files made anew by a closure at each read
//! (a skill whose `resources` is `"dynamic"`). Their `SKILL.md` is written
//! from the front matter and the instructions, so what a host reads
//! agrees with the entry.

use std::fmt;
use std::sync::Arc;

use mcp_prompts_template::rules::is_skill_path_segment;
use mcp_prompts_template::skill::{
    MAX_BYTES, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MAX_FILES, MAX_NAME_CHARS,
    SCOPES_KEY,
};
use serde_json::{Map, Value};

use super::SkillFile;
use super::generated::{Generate, SkillContent, files_of, usable_paths};
use super::set::Skill;
use super::written::skill_md;
use crate::caller::is_valid_scope;
use crate::error::BuildError;

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
/// # Ok::<(), mcp_prompts::BuildError>(())
/// ```
///
/// A skill whose content is made when it is read, listed with
/// `"resources": "dynamic"` so hosts fetch it afresh:
///
/// ```
/// use mcp_prompts::{DynamicSkill, SkillContent};
///
/// let skill = DynamicSkill::builder("on-call")
///     .description("Who is on call now, and how to page them")
///     .generated(|| {
///         SkillContent::new("# On call\n\nPage the person in `roster.json`.\n")
///             .file("roster.json", "application/json", r#"{"now": "ann"}"#)
///     })
///     .build()?;
/// # let _ = skill;
/// # Ok::<(), mcp_prompts::BuildError>(())
/// ```
#[derive(Clone)]
pub struct DynamicSkill {
    /// The skill, and the skills nested in it (an embedded folder may
    /// hold some), in path order.
    skills: Vec<Skill>,
    /// Their files, digested once; none for a generated skill.
    files: Vec<SkillFile>,
}

/// Builds a [`DynamicSkill`]; see [`DynamicSkill::builder`].
#[must_use]
pub struct DynamicSkillBuilder {
    path: String,
    description: Option<String>,
    fields: Map<String, Value>,
    /// Its instructions and files, unless generated.
    content: SkillContent,
    scopes: Vec<String>,
    generate: Option<Generate>,
}

impl fmt::Debug for DynamicSkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicSkill")
            .field("path", &self.path())
            .field("files", &self.files.len())
            .field(
                "generated",
                &self.skills.first().is_some_and(Skill::is_generated),
            )
            .finish()
    }
}

impl fmt::Debug for DynamicSkillBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicSkillBuilder")
            .field("path", &self.path)
            .field("files", &self.content.files.len())
            .field("generated", &self.generate.is_some())
            .finish_non_exhaustive()
    }
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
            content: SkillContent::default(),
            scopes: Vec::new(),
            generate: None,
        }
    }

    /// A skill embedded at compile time, checked and digested then.
    pub(crate) fn from_parts(skills: Vec<Skill>, files: Vec<SkillFile>) -> Self {
        Self { skills, files }
    }

    /// The skill's path.
    pub fn path(&self) -> &str {
        self.skills.first().map_or("", Skill::path)
    }

    /// The skills (the skill and any nested in it) and their files, as
    /// served.
    pub(crate) fn parts(&self) -> (Vec<Skill>, Vec<SkillFile>) {
        (self.skills.clone(), self.files.clone())
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
    /// own), served as given; `license` and `allowed-tools` must be text,
    /// `compatibility` text of 1 to 500 characters, `metadata` text values
    /// (scopes are given with [`scopes`](Self::scopes)).
    pub fn field(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.fields.insert(key.into(), value.into());
        self
    }

    /// The instructions: the `SKILL.md` text after its front matter.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.content.instructions = instructions.into();
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
        self.content = self.content.file(path, mime, bytes);
        self
    }

    /// Makes the skill's instructions and files anew each time a client
    /// reads them, with `generate`; its entry lists `"resources":
    /// "dynamic"` (no digests), so hosts read it afresh. Its front matter
    /// stays as built. Instead of [`instructions`](Self::instructions) and
    /// [`file`](Self::file).
    pub fn generated<F>(mut self, generate: F) -> Self
    where
        F: Fn() -> SkillContent + Send + Sync + 'static,
    {
        self.generate = Some(Arc::new(generate));
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
    pub fn build(self) -> Result<DynamicSkill, BuildError> {
        let mut problems = Vec::new();
        let at = format!("skill `{}`", crate::error::excerpt(&self.path));
        let segments: Vec<&str> = self.path.split('/').collect();
        if !segments.iter().all(|s| is_skill_path_segment(s)) {
            problems.push(format!(
                "{at}: a path is `/`-separated names, none empty, `.` or `..`, none with `%`, `?`, `#`, `\\` or a control character"
            ));
        }
        let name = segments.last().copied().unwrap_or_default();
        if !is_name(name) {
            problems.push(format!(
                "{at}: `{}` is not a skill name: 1 to {MAX_NAME_CHARS} lowercase letters, digits and single hyphens, not at either end",
                crate::error::excerpt(name)
            ));
        }
        let description = self.description.unwrap_or_default();
        if description.trim().is_empty() || description.chars().count() > MAX_DESCRIPTION_CHARS {
            problems.push(format!(
                "{at}: a description of 1 to {MAX_DESCRIPTION_CHARS} characters is needed"
            ));
        }
        for (key, value) in &self.fields {
            let fine = match key.as_str() {
                "name" | "description" => false,
                "license" | "allowed-tools" => value.is_string(),
                "compatibility" => value
                    .as_str()
                    .is_some_and(|t| (1..=MAX_COMPATIBILITY_CHARS).contains(&t.chars().count())),
                // Scopes are given with `scopes`, which checks and applies
                // them; a key that only looked like it would not.
                "metadata" => value.as_object().is_some_and(|m| {
                    m.values().all(Value::is_string) && !m.contains_key(SCOPES_KEY)
                }),
                _ => true,
            };
            if !fine {
                problems.push(format!(
                    "{at}: the field `{key}` breaks the Agent Skills rules (`license` and `allowed-tools` are text, `compatibility` text of 1 to {MAX_COMPATIBILITY_CHARS} characters, `metadata` text values, its scopes given with `scopes`)"
                ));
            }
        }
        if let Some(bad) = self.scopes.iter().find(|s| !is_valid_scope(s)) {
            problems.push(format!(
                "{at}: `{}` is not a scope",
                crate::error::excerpt(bad)
            ));
        }
        let content = self.content;
        if self.generate.is_some()
            && (!content.files.is_empty() || !content.instructions.is_empty())
        {
            problems.push(format!(
                "{at}: a generated skill's instructions and files come from its closure only"
            ));
        }
        if !usable_paths(&content.files) {
            problems.push(format!(
                "{at}: file paths are distinct relative paths, none its `SKILL.md`"
            ));
        }
        let mut front_matter = Map::new();
        front_matter.insert("name".into(), name.into());
        front_matter.insert("description".into(), description.clone().into());
        front_matter.extend(self.fields);
        let skill_md = skill_md(&front_matter, &content.instructions);
        let bytes =
            (skill_md.len() + content.files.iter().map(|(_, _, b)| b.len()).sum::<usize>()) as u64;
        if content.files.len() + 1 > MAX_FILES || bytes > MAX_BYTES {
            problems.push(format!(
                "{at}: a skill holds at most {MAX_FILES} files and 16 MiB"
            ));
        }
        if !problems.is_empty() {
            return Err(BuildError::new(problems));
        }
        let mut skill =
            Skill::new(self.path.as_str(), front_matter, name, description).limited_to(self.scopes);
        let files = match self.generate {
            Some(generate) => {
                skill = skill.generated_by(generate);
                Vec::new()
            }
            None => files_of(&self.path, skill_md, content.files),
        };
        Ok(DynamicSkill {
            skills: vec![skill],
            files,
        })
    }
}

/// Whether `name` follows the Agent Skills rules, in ASCII.
fn is_name(name: &str) -> bool {
    (1..=MAX_NAME_CHARS).contains(&name.len())
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
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
        let served = &served[0];
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
            DynamicSkill::builder("notes")
                .description("d")
                .file("a#b", "text/plain", "x")
                .build(),
            DynamicSkill::builder("notes")
                .description("d")
                .field("compatibility", "x".repeat(501))
                .build(),
            DynamicSkill::builder("notes")
                .description("d")
                .field(
                    "metadata",
                    serde_json::json!({"mcp-prompts/scopes": "admin"}),
                )
                .build(),
            DynamicSkill::builder("notes")
                .description("d")
                .instructions("Both")
                .generated(|| SkillContent::new("x"))
                .build(),
        ] {
            assert!(bad.is_err());
        }
    }

    #[test]
    fn a_generated_skill_is_made_at_each_read_and_a_bad_one_serves_nothing() {
        let made = |content: fn() -> SkillContent| {
            let skill = DynamicSkill::builder("made")
                .description("Made")
                .generated(content)
                .build()
                .unwrap();
            let (skills, files) = skill.parts();
            assert!(files.is_empty());
            let files = skills[0].generate().unwrap();
            files
                .iter()
                .map(|f| f.path().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            made(|| SkillContent::new("Hi").file("a.txt", "text/plain", "a")),
            ["made/SKILL.md", "made/a.txt"]
        );
        // A path that is no plain relative one: the files are left out.
        assert_eq!(
            made(|| SkillContent::new("Hi").file("../a.txt", "text/plain", "a")),
            ["made/SKILL.md"]
        );
        // A closure that panics serves nothing this time.
        assert!(made(|| panic!("the data is gone")).is_empty());
    }
}
