//! The catalog document: what a client can see of every prompt and skill,
//! in the local, unscoped view, sorted and free of anything that changes
//! between runs, so that two builds of the same catalog write the same
//! bytes.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use crate::catalog::ArgInfo;
use crate::descriptor::DefaultCheck;
use crate::error::excerpt;
use crate::server::Service;

/// The version of the document's shape, its `"catalog"` key.
const SHAPE: u32 = 1;

/// Every prompt and skill a server offers, as a document to commit and
/// compare ([`Changes::between`](super::Changes::between)):
/// `{"catalog": 1, "prompts": [...], "skills": [...]}`.
#[derive(Clone, Debug, Serialize)]
pub struct Contract {
    catalog: u32,
    prompts: Vec<PromptEntry>,
    skills: Vec<SkillEntry>,
    /// Where each prompt is defined (`file:line`, or a prompt file's
    /// path), for messages; never written, since it moves with every edit.
    #[serde(skip)]
    places: BTreeMap<String, String>,
}

/// A document as written, read back only through [`Contract::from_json`],
/// which checks its shape and its names.
#[derive(Deserialize)]
struct Written {
    catalog: u32,
    prompts: Vec<PromptEntry>,
    skills: Vec<SkillEntry>,
}

/// Two documents are equal when they say the same, wherever each was
/// made (a server knows where its prompts are defined; a file does not).
impl PartialEq for Contract {
    fn eq(&self, other: &Self) -> bool {
        (self.catalog, &self.prompts, &self.skills)
            == (other.catalog, &other.prompts, &other.skills)
    }
}

/// One prompt: its name, how it is shown, its arguments in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptEntry {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(default)]
    arguments: Vec<ArgumentEntry>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default = "yes")]
    as_tool: bool,
    /// The languages it has translations in, the default aside, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    languages: Vec<String>,
}

/// One argument. An absent key means unknown or none: a `type` the
/// server cannot name (a type of the user's own, parsed by `FromStr`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArgumentEntry {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    choices: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    default: Option<String>,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    range: Option<ArgumentRange>,
}

/// The bounds a number keeps; an absent one is none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArgumentRange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max: Option<Number>,
}

/// One skill: where it is, what it says it is, and each of its files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillEntry {
    uri: String,
    name: String,
    description: String,
    files: Vec<FileEntry>,
}

/// One file of a skill (`SKILL.md` among them), known by its digest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    path: String,
    size: u64,
    digest: String,
}

/// Why a document could not be read.
#[derive(Debug)]
pub struct ContractError(String);

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ContractError {}

fn yes() -> bool {
    true
}

impl Contract {
    /// What `service` offers now: every prompt and skill, as the local
    /// user (who sees all) sees them.
    pub fn of(service: &Service) -> Self {
        let served = service.snapshot();
        let mut places = BTreeMap::new();
        let mut prompts: Vec<PromptEntry> = served
            .prompts()
            .map(|prompt| {
                places.insert(prompt.name().to_owned(), prompt.location());
                PromptEntry {
                    name: prompt.name().to_owned(),
                    title: prompt.title().map(str::to_owned),
                    description: prompt.description().map(str::to_owned),
                    arguments: prompt
                        .arguments()
                        .iter()
                        .filter(|arg| !arg.injected())
                        .map(ArgumentEntry::of)
                        .collect(),
                    tags: prompt.tags().into_iter().map(str::to_owned).collect(),
                    as_tool: prompt.as_tool(),
                    languages: {
                        let mut languages: Vec<String> = (prompt.translations().into_iter())
                            .map(|(language, _)| language.to_string())
                            .collect();
                        languages.sort();
                        languages
                    },
                }
            })
            .collect();
        prompts.sort_by(|a, b| a.name.cmp(&b.name));
        // The local user sees every skill, with its files as its listing
        // entry shows them (its nested skills' too).
        let set = service.skills();
        let skills = set
            .skills()
            .iter()
            .map(|skill| {
                let folder = format!("{}/", skill.path());
                let files = set.files_under(skill.path()).iter().map(|file| FileEntry {
                    path: file
                        .path()
                        .strip_prefix(&folder)
                        .unwrap_or(file.path())
                        .to_owned(),
                    size: file.size(),
                    digest: file.digest().to_owned(),
                });
                SkillEntry {
                    uri: crate::skills::uri(skill.path()),
                    name: skill.name().to_owned(),
                    description: skill.description().to_owned(),
                    files: files.collect(),
                }
            })
            .collect();
        Self {
            catalog: SHAPE,
            prompts,
            skills,
            places,
        }
    }

    /// Reads a document written by [`to_json`](Self::to_json).
    pub fn from_json(text: &str) -> Result<Self, ContractError> {
        let read: Written = serde_json::from_str(text)
            .map_err(|err| ContractError(format!("not a catalog document: {err}")))?;
        let mut contract = Self {
            catalog: read.catalog,
            prompts: read.prompts,
            skills: read.skills,
            places: BTreeMap::new(),
        };
        if contract.catalog != SHAPE {
            return Err(ContractError(format!(
                "a catalog document of shape {}, which this version does not read (it reads {SHAPE})",
                contract.catalog
            )));
        }
        contract.prompts.sort_by(|a, b| a.name.cmp(&b.name));
        contract.skills.sort_by(|a, b| a.uri.cmp(&b.uri));
        if let Some(name) = listed_twice(contract.prompts.iter().map(|p| p.name.as_str())) {
            return Err(ContractError(format!(
                "prompt `{}` is listed twice",
                excerpt(name)
            )));
        }
        if let Some(uri) = listed_twice(contract.skills.iter().map(|s| s.uri.as_str())) {
            return Err(ContractError(format!(
                "skill `{}` is listed twice",
                excerpt(uri)
            )));
        }
        for prompt in &contract.prompts {
            if let Some(name) = listed_twice(prompt.arguments.iter().map(|a| a.name.as_str())) {
                return Err(ContractError(format!(
                    "argument `{}` of prompt `{}` is listed twice",
                    excerpt(name),
                    excerpt(&prompt.name)
                )));
            }
        }
        Ok(contract)
    }

    /// The document, pretty-printed, with a final newline: the same bytes
    /// for the same catalog.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Every prompt, by name.
    pub fn prompts(&self) -> &[PromptEntry] {
        &self.prompts
    }

    /// Every skill, by URI.
    pub fn skills(&self) -> &[SkillEntry] {
        &self.skills
    }

    /// Where prompt `name` is defined, when this document was made from a
    /// server (not read from a file).
    pub fn place_of(&self, name: &str) -> Option<&str> {
        self.places.get(name).map(String::as_str)
    }
}

impl PromptEntry {
    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its title, if it has one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// Its description, if it has one.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Its arguments, in order.
    pub fn arguments(&self) -> &[ArgumentEntry] {
        &self.arguments
    }

    /// The languages it has translations in (its default language
    /// aside), sorted.
    pub fn languages(&self) -> &[String] {
        &self.languages
    }

    /// Its tags.
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// Whether the prompt tools offer it.
    pub fn as_tool(&self) -> bool {
        self.as_tool
    }
}

impl ArgumentEntry {
    fn of(arg: &ArgInfo<'_>) -> Self {
        let choices = arg.choices();
        let boolean = choices == ["true", "false"];
        let bound = |text: Option<&str>| match serde_json::from_str::<Value>(text?.trim()) {
            Ok(Value::Number(number)) => Some(number),
            _ => None,
        };
        // The author's bounds, else the integer type's own (`u8`: 0 to
        // 255), so that a narrower type is a narrower range.
        let (type_min, type_max) = integer_bounds(arg);
        let author = arg.range();
        let range = ArgumentRange {
            min: author.and_then(|r| bound(r.min)).or(type_min),
            max: author.and_then(|r| bound(r.max)).or(type_max),
        };
        Self {
            name: arg.name().to_owned(),
            title: arg.title().map(str::to_owned),
            description: arg.description().map(str::to_owned),
            required: arg.required(),
            choices: (!choices.is_empty() && !boolean)
                .then(|| choices.iter().map(|&c| c.to_owned()).collect()),
            default: arg.default().map(str::to_owned),
            kind: type_of(arg, boolean).map(str::to_owned),
            format: arg.format().map(str::to_owned),
            range: (range.min.is_some() || range.max.is_some()).then_some(range),
        }
    }

    /// The argument's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether a client must send it.
    pub fn required(&self) -> bool {
        self.required
    }

    /// The values it takes, when only some are; `None` for free text.
    pub fn choices(&self) -> Option<&[String]> {
        self.choices.as_deref()
    }

    /// Its default, if it has one.
    pub fn default(&self) -> Option<&str> {
        self.default.as_deref()
    }

    /// Its type: `string`, `integer`, `number`, `boolean`, `date`,
    /// `date-time` or `json`; `None` when not known.
    pub fn kind(&self) -> Option<&str> {
        self.kind.as_deref()
    }

    /// Its bounds, if it has any.
    pub fn range(&self) -> Option<&ArgumentRange> {
        self.range.as_ref()
    }

    /// Its title, if it has one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// Its description, if it has one.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// How a value is written, where its type says (`YYYY-MM-DD`).
    pub fn format(&self) -> Option<&str> {
        self.format.as_deref()
    }
}

impl ArgumentRange {
    /// The least value allowed, if any.
    pub fn min(&self) -> Option<&Number> {
        self.min.as_ref()
    }

    /// The greatest value allowed, if any.
    pub fn max(&self) -> Option<&Number> {
        self.max.as_ref()
    }
}

impl SkillEntry {
    /// The skill's `skill://` URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its files, by path.
    pub fn files(&self) -> &[FileEntry] {
        &self.files
    }

    /// Its name, from its `SKILL.md`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its description, from its `SKILL.md`.
    pub fn description(&self) -> &str {
        &self.description
    }
}

impl FileEntry {
    /// The file's path in the skill.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Its size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Its digest, `sha256:HEX`.
    pub fn digest(&self) -> &str {
        &self.digest
    }
}

/// The first name `names` lists twice: names are what documents are
/// compared by, so one name twice would leave which was meant to chance.
fn listed_twice<'a>(mut names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut seen = std::collections::HashSet::new();
    names.find(|name| !seen.insert(*name))
}

/// An integer type's least and greatest values.
fn integer_bounds(arg: &ArgInfo<'_>) -> (Option<Number>, Option<Number>) {
    let Some(DefaultCheck::Integer { signed, bits }) = arg.ty().map(|ty| ty.default_check) else {
        return (None, None);
    };
    // Exact up to 64 bits (JSON numbers of this document are compared as
    // integers); a 128-bit type's bounds are past what it writes.
    match (signed, bits) {
        (false, bits) if bits > 64 => (Some(0.into()), None),
        (true, bits) if bits > 64 => (None, None),
        (false, bits) => (Some(0.into()), Some((u64::MAX >> (64 - bits)).into())),
        (true, bits) => (
            Some((i64::MIN >> (64 - bits)).into()),
            Some((i64::MAX >> (64 - bits)).into()),
        ),
    }
}

/// What an argument's values are, as far as the server knows.
fn type_of(arg: &ArgInfo<'_>, boolean: bool) -> Option<&'static str> {
    if boolean {
        return Some("boolean");
    }
    let Some(ty) = arg.ty() else {
        // A run-time argument is text.
        return Some("string");
    };
    match (ty.schema_format, ty.format, ty.default_check) {
        (Some("date"), _, _) => Some("date"),
        (Some("date-time"), _, _) => Some("date-time"),
        (_, Some("JSON"), _) => Some("json"),
        (_, _, DefaultCheck::Integer { .. }) => Some("integer"),
        (_, _, DefaultCheck::Number) => Some("number"),
        (_, _, DefaultCheck::Anything | DefaultCheck::OneOf(_)) => Some("string"),
        // A `char` takes one character, and a type of the user's own what
        // its parser takes: no kind of the list names either.
        _ => None,
    }
}
