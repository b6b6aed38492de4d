//! The changes between two catalog documents, each classified: breaking
//! (a host's saved invocation or an agent's reference stops working),
//! compatible (everything that worked still works), or informational.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use serde::Serialize;

use super::document::{ArgumentEntry, ArgumentRange, Contract, PromptEntry, SkillEntry};
use crate::error::{Escaped, excerpt};

/// How much a change matters to those who use the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeClass {
    /// Something that worked stops working.
    Breaking,
    /// Everything that worked still works.
    Compatible,
    /// Only what is shown changed.
    Info,
}

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ChangeKind {
    /// A prompt is gone (a renamed one is gone, and another added).
    PromptRemoved,
    /// An argument is gone: a client that sends it is refused.
    ArgumentRemoved,
    /// A new required argument: a call without it is refused.
    ArgumentAdded,
    /// An optional argument became required.
    ArgumentNowRequired,
    /// A choice is gone.
    ChoiceRemoved,
    /// The argument refuses values it took: text to integer, a free
    /// argument that gains choices, a range that narrows.
    ArgumentTypeChanged,
    /// A skill is gone.
    SkillRemoved,
    /// A new prompt.
    PromptAdded,
    /// A new optional argument.
    ArgumentAddedOptional,
    /// A required argument became optional.
    ArgumentNowOptional,
    /// A new choice.
    ChoiceAdded,
    /// The argument takes more than it did: integer to text, choices
    /// dropped for free text, a range that widens.
    ArgumentTypeWidened,
    /// A new skill.
    SkillAdded,
    /// A prompt's or an argument's title changed.
    TitleChanged,
    /// A prompt's or an argument's description changed.
    DescriptionChanged,
    /// An argument's default changed.
    DefaultChanged,
    /// A skill's files (by digest), name or description changed.
    SkillChanged,
    /// A prompt's tags changed.
    TagsChanged,
}

impl ChangeKind {
    /// Whether it breaks, is compatible, or is for information.
    pub fn class(self) -> ChangeClass {
        match self {
            Self::PromptRemoved
            | Self::ArgumentRemoved
            | Self::ArgumentAdded
            | Self::ArgumentNowRequired
            | Self::ChoiceRemoved
            | Self::ArgumentTypeChanged
            | Self::SkillRemoved => ChangeClass::Breaking,
            Self::PromptAdded
            | Self::ArgumentAddedOptional
            | Self::ArgumentNowOptional
            | Self::ChoiceAdded
            | Self::ArgumentTypeWidened
            | Self::SkillAdded => ChangeClass::Compatible,
            Self::TitleChanged
            | Self::DescriptionChanged
            | Self::DefaultChanged
            | Self::SkillChanged
            | Self::TagsChanged => ChangeClass::Info,
        }
    }

    /// Its name in the reports: `argument-now-required`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PromptRemoved => "prompt-removed",
            Self::ArgumentRemoved => "argument-removed",
            Self::ArgumentAdded => "argument-added",
            Self::ArgumentNowRequired => "argument-now-required",
            Self::ChoiceRemoved => "choice-removed",
            Self::ArgumentTypeChanged => "argument-type-changed",
            Self::SkillRemoved => "skill-removed",
            Self::PromptAdded => "prompt-added",
            Self::ArgumentAddedOptional => "argument-added-optional",
            Self::ArgumentNowOptional => "argument-now-optional",
            Self::ChoiceAdded => "choice-added",
            Self::ArgumentTypeWidened => "argument-type-widened",
            Self::SkillAdded => "skill-added",
            Self::TitleChanged => "title-changed",
            Self::DescriptionChanged => "description-changed",
            Self::DefaultChanged => "default-changed",
            Self::SkillChanged => "skill-changed",
            Self::TagsChanged => "tags-changed",
        }
    }
}

/// One change, naming the prompt, argument, choice or skill it is about.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    kind: ChangeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    argument: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skill: Option<String>,
    message: String,
    /// Where the new definition is, when known (`file:line`, a file).
    #[serde(skip)]
    place: Option<String>,
}

impl Change {
    /// What changed.
    pub fn kind(&self) -> ChangeKind {
        self.kind
    }

    /// The prompt it is about, if any.
    pub fn prompt(&self) -> Option<&str> {
        self.prompt.as_deref()
    }

    /// The argument it is about, if any.
    pub fn argument(&self) -> Option<&str> {
        self.argument.as_deref()
    }

    /// The choice it is about, if any.
    pub fn choice(&self) -> Option<&str> {
        self.choice.as_deref()
    }

    /// The skill (its URI) it is about, if any.
    pub fn skill(&self) -> Option<&str> {
        self.skill.as_deref()
    }

    /// What changed, in a sentence.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where the new definition is, when known: `src/prompts.rs:12`, or a
    /// prompt file.
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }
}

/// Every change from one catalog document to another, by class:
/// `{"breaking": [...], "compatible": [...], "info": [...]}` as JSON,
/// one line per change (breaking first) as text.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Changes {
    breaking: Vec<Change>,
    compatible: Vec<Change>,
    info: Vec<Change>,
    /// Changes past [`MAX_CHANGES`], by class (breaking, compatible,
    /// info): counted, not kept; written as `"omitted": {"breaking": N,
    /// ...}` when there are any.
    #[serde(
        skip_serializing_if = "omitted_none",
        serialize_with = "omitted_by_class"
    )]
    omitted: [usize; 3],
}

fn omitted_by_class<S: serde::Serializer>(
    omitted: &[usize; 3],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap as _;
    let mut map = serializer.serialize_map(Some(3))?;
    for (class, count) in ["breaking", "compatible", "info"].iter().zip(omitted) {
        map.serialize_entry(class, count)?;
    }
    map.end()
}

/// The most changes kept (and reported) from one comparison: past it
/// they are counted, so that two large hostile catalogs cannot make the
/// report, and the memory it takes, grow without bound.
pub const MAX_CHANGES: usize = 100_000;

fn omitted_none(omitted: &[usize; 3]) -> bool {
    omitted.iter().all(|&n| n == 0)
}

impl Changes {
    /// What changed from `old` to `new`.
    pub fn between(old: &Contract, new: &Contract) -> Self {
        let mut changes = Self::default();
        let olds: BTreeMap<&str, &PromptEntry> =
            old.prompts().iter().map(|p| (p.name(), p)).collect();
        let news: BTreeMap<&str, &PromptEntry> =
            new.prompts().iter().map(|p| (p.name(), p)).collect();
        // The prompts added, by how a client calls them: a removed prompt
        // with the same arguments was likely renamed.
        let mut added_by_shape: HashMap<Vec<(&str, bool)>, &str> = HashMap::new();
        for (name, after) in news.iter().filter(|(name, _)| !olds.contains_key(*name)) {
            added_by_shape.entry(shape(after)).or_insert(name);
        }
        for (name, before) in &olds {
            let place = new.place_of(name).map(str::to_owned);
            let mut about = About {
                prompt: name,
                argument: None,
                place,
                changes: &mut changes,
            };
            match news.get(name) {
                Some(after) => about.prompt_changes(before, after),
                None => {
                    let shown = excerpt(name);
                    let message = match added_by_shape.get(&shape(before)) {
                        Some(other) => format!(
                            "prompt `{shown}` was removed; `{}` was added with the same arguments: a rename is a removal and an addition",
                            excerpt(other)
                        ),
                        None => format!("prompt `{shown}` was removed"),
                    };
                    about.push(ChangeKind::PromptRemoved, None, message);
                }
            }
        }
        for name in news.keys().filter(|name| !olds.contains_key(*name)) {
            let place = new.place_of(name).map(str::to_owned);
            let mut about = About {
                prompt: name,
                argument: None,
                place,
                changes: &mut changes,
            };
            about.push(
                ChangeKind::PromptAdded,
                None,
                format!("prompt `{}` was added", excerpt(name)),
            );
        }
        changes.skill_changes(old.skills(), new.skills());
        changes
    }

    /// The breaking changes.
    pub fn breaking(&self) -> &[Change] {
        &self.breaking
    }

    /// The compatible changes.
    pub fn compatible(&self) -> &[Change] {
        &self.compatible
    }

    /// The changes that are for information.
    pub fn info(&self) -> &[Change] {
        &self.info
    }

    /// Every change, breaking first, then compatible, then the rest.
    pub fn iter(&self) -> impl Iterator<Item = &Change> {
        self.breaking
            .iter()
            .chain(&self.compatible)
            .chain(&self.info)
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.breaking.is_empty()
            && self.compatible.is_empty()
            && self.info.is_empty()
            && self.omitted() == 0
    }

    fn push(&mut self, change: Change) {
        let class = change.kind.class();
        if self.breaking.len() + self.compatible.len() + self.info.len() >= MAX_CHANGES {
            self.omitted[class as usize] += 1;
            return;
        }
        match class {
            ChangeClass::Breaking => self.breaking.push(change),
            ChangeClass::Compatible => self.compatible.push(change),
            ChangeClass::Info => self.info.push(change),
        }
    }

    /// Whether anything breaks, among the changes kept or those past
    /// [`MAX_CHANGES`].
    pub fn is_breaking(&self) -> bool {
        !self.breaking.is_empty() || self.omitted[ChangeClass::Breaking as usize] > 0
    }

    /// How many changes were past [`MAX_CHANGES`], and so only counted.
    pub fn omitted(&self) -> usize {
        self.omitted.iter().sum()
    }

    fn skill_changes(&mut self, old: &[SkillEntry], new: &[SkillEntry]) {
        let olds: BTreeMap<&str, &SkillEntry> = old.iter().map(|s| (s.uri(), s)).collect();
        let news: BTreeMap<&str, &SkillEntry> = new.iter().map(|s| (s.uri(), s)).collect();
        let mut push = |kind, uri: &str, message: String| {
            self.push(Change {
                kind,
                prompt: None,
                argument: None,
                choice: None,
                skill: Some(uri.to_owned()),
                message,
                place: None,
            });
        };
        for (uri, before) in &olds {
            let Some(after) = news.get(uri) else {
                push(
                    ChangeKind::SkillRemoved,
                    uri,
                    format!("skill `{}` was removed", excerpt(uri)),
                );
                continue;
            };
            let mut what = Vec::new();
            if before.name() != after.name() {
                what.push(format!("its name is now `{}`", excerpt(after.name())));
            }
            if before.description() != after.description() {
                what.push("its description changed".to_owned());
            }
            let files = |skill: &SkillEntry| -> BTreeMap<String, String> {
                let files = skill.files().iter();
                files
                    .map(|f| (f.path().to_owned(), f.digest().to_owned()))
                    .collect()
            };
            let (was, is) = (files(before), files(after));
            for (path, digest) in &is {
                match was.get(path) {
                    None => what.push(format!("`{}` was added", excerpt(path))),
                    Some(old) if old != digest => what.push(format!("`{}` changed", excerpt(path))),
                    Some(_) => {}
                }
            }
            for path in was.keys().filter(|path| !is.contains_key(*path)) {
                what.push(format!("`{}` was removed", excerpt(path)));
            }
            if !what.is_empty() {
                let message = format!("skill `{}` changed: {}", excerpt(uri), what.join(", "));
                push(ChangeKind::SkillChanged, uri, message);
            }
        }
        for uri in news.keys().filter(|uri| !olds.contains_key(*uri)) {
            push(
                ChangeKind::SkillAdded,
                uri,
                format!("skill `{}` was added", excerpt(uri)),
            );
        }
    }
}

/// How a client calls a prompt: its arguments' names, and which are required.
fn shape(prompt: &PromptEntry) -> Vec<(&str, bool)> {
    let arguments = prompt.arguments().iter();
    arguments.map(|a| (a.name(), a.required())).collect()
}

/// The prompt (and argument) the changes being found are about.
struct About<'a> {
    prompt: &'a str,
    argument: Option<String>,
    place: Option<String>,
    changes: &'a mut Changes,
}

impl About<'_> {
    fn push(&mut self, kind: ChangeKind, choice: Option<&str>, message: String) {
        self.changes.push(Change {
            kind,
            prompt: Some(self.prompt.to_owned()),
            argument: self.argument.clone(),
            choice: choice.map(str::to_owned),
            skill: None,
            message,
            place: self.place.clone(),
        });
    }

    /// "the title of prompt `a` is now `T`", or that it has none any more.
    fn now(&self, what: &str, value: Option<&str>) -> String {
        match value {
            Some(value) => format!(
                "the {what} of {} is now `{}`",
                self.subject(),
                excerpt(value)
            ),
            None => format!("{} has no {what} any more", self.subject()),
        }
    }

    /// Who a message is about: "prompt `a`" or "argument `x` of `a`".
    fn subject(&self) -> String {
        match &self.argument {
            Some(argument) => format!(
                "argument `{}` of `{}`",
                excerpt(argument),
                excerpt(self.prompt)
            ),
            None => format!("prompt `{}`", excerpt(self.prompt)),
        }
    }

    fn prompt_changes(&mut self, before: &PromptEntry, after: &PromptEntry) {
        self.shown_changes(
            (before.title(), after.title()),
            (before.description(), after.description()),
        );
        if before.tags() != after.tags() {
            let tags: Vec<String> = after.tags().iter().map(|t| excerpt(t)).collect();
            let message = format!(
                "the tags of {} are now [{}]",
                self.subject(),
                tags.join(", ")
            );
            self.push(ChangeKind::TagsChanged, None, message);
        }
        let olds: HashMap<&str, &ArgumentEntry> =
            before.arguments().iter().map(|a| (a.name(), a)).collect();
        let news: HashMap<&str, &ArgumentEntry> =
            after.arguments().iter().map(|a| (a.name(), a)).collect();
        for arg in before.arguments() {
            self.argument = Some(arg.name().to_owned());
            match news.get(arg.name()) {
                Some(new) => self.argument_changes(arg, new),
                None => {
                    let message = format!("{} was removed", self.subject());
                    self.push(ChangeKind::ArgumentRemoved, None, message);
                }
            }
        }
        for arg in after
            .arguments()
            .iter()
            .filter(|a| !olds.contains_key(a.name()))
        {
            self.argument = Some(arg.name().to_owned());
            let (kind, message) = if arg.required() {
                (
                    ChangeKind::ArgumentAdded,
                    format!("{} was added, required", self.subject()),
                )
            } else {
                (
                    ChangeKind::ArgumentAddedOptional,
                    format!("{} was added, optional", self.subject()),
                )
            };
            self.push(kind, None, message);
        }
        self.argument = None;
    }

    fn shown_changes(
        &mut self,
        titles: (Option<&str>, Option<&str>),
        descriptions: (Option<&str>, Option<&str>),
    ) {
        if titles.0 != titles.1 {
            let message = self.now("title", titles.1);
            self.push(ChangeKind::TitleChanged, None, message);
        }
        if descriptions.0 != descriptions.1 {
            let message = format!("the description of {} changed", self.subject());
            self.push(ChangeKind::DescriptionChanged, None, message);
        }
    }

    fn argument_changes(&mut self, before: &ArgumentEntry, after: &ArgumentEntry) {
        match (before.required(), after.required()) {
            (false, true) => {
                let message = format!("{} is now required", self.subject());
                self.push(ChangeKind::ArgumentNowRequired, None, message);
            }
            (true, false) => {
                let message = format!("{} is now optional", self.subject());
                self.push(ChangeKind::ArgumentNowOptional, None, message);
            }
            _ => {}
        }
        self.type_changes(before, after);
        match (before.choices(), after.choices()) {
            (Some(was), Some(is)) => {
                // A choice is taken whatever its case, as the server reads it.
                let folded = |list: &[String]| -> HashSet<String> {
                    list.iter().map(|c| c.to_lowercase()).collect()
                };
                let (was_folded, is_folded) = (folded(was), folded(is));
                for choice in was
                    .iter()
                    .filter(|c| !is_folded.contains(&c.to_lowercase()))
                {
                    let message =
                        format!("{} no longer takes `{}`", self.subject(), excerpt(choice));
                    self.push(ChangeKind::ChoiceRemoved, Some(choice), message);
                }
                for choice in is
                    .iter()
                    .filter(|c| !was_folded.contains(&c.to_lowercase()))
                {
                    let message =
                        format!("{} now also takes `{}`", self.subject(), excerpt(choice));
                    self.push(ChangeKind::ChoiceAdded, Some(choice), message);
                }
            }
            (None, Some(is)) => {
                let listed = is
                    .iter()
                    .take(10)
                    .map(|c| excerpt(c))
                    .collect::<Vec<_>>()
                    .join(", ");
                let more = if is.len() > 10 { ", ..." } else { "" };
                let message = format!("{} now takes only one of: {listed}{more}", self.subject());
                self.push(ChangeKind::ArgumentTypeChanged, None, message);
            }
            // Choices dropped for free text; dropped for another type is
            // that type's change, said above.
            (Some(_), None) if after.kind() == Some("string") => {
                let message = format!(
                    "{} now takes free text, not only its choices",
                    self.subject()
                );
                self.push(ChangeKind::ArgumentTypeWidened, None, message);
            }
            _ => {}
        }
        if before.default() != after.default() {
            let message = self.now("default", after.default());
            self.push(ChangeKind::DefaultChanged, None, message);
        }
        self.shown_changes(
            (before.title(), after.title()),
            (before.description(), after.description()),
        );
    }

    fn type_changes(&mut self, before: &ArgumentEntry, after: &ArgumentEntry) {
        let (was, is) = (before.kind(), after.kind());
        if was != is {
            let name =
                |kind: Option<&str>| kind.map_or_else(|| "a type of its own".to_owned(), excerpt);
            // Text takes every value; an integer is a number. Any other
            // change may refuse what was taken (an unknown type included).
            let widened =
                (is == Some("string")) || (was == Some("integer") && is == Some("number"));
            let (kind, how) = if widened {
                (ChangeKind::ArgumentTypeWidened, "widened")
            } else {
                (ChangeKind::ArgumentTypeChanged, "changed")
            };
            let message = format!(
                "{} {how} from {} to {}",
                self.subject(),
                name(was),
                name(is)
            );
            self.push(kind, None, message);
            // The type's change says it all: its range comes with it.
            return;
        }
        // Two types of one kind (or of none the server names) differ by
        // how a value is written: jiff's instant and its zoned date-time.
        if before.format() != after.format() {
            let written = |format: Option<&str>| format.map_or_else(|| "none".to_owned(), excerpt);
            let message = format!(
                "{} is now written as {} (was {})",
                self.subject(),
                written(after.format()),
                written(before.format())
            );
            self.push(ChangeKind::ArgumentTypeChanged, None, message);
            return;
        }
        let (narrower, wider) = range_change(before.range(), after.range());
        if narrower {
            let message = format!("the range of {} narrowed", self.subject());
            self.push(ChangeKind::ArgumentTypeChanged, None, message);
        } else if wider {
            let message = format!("the range of {} widened", self.subject());
            self.push(ChangeKind::ArgumentTypeWidened, None, message);
        }
    }
}

/// Whether the bounds narrowed (a value in the old range is out of the
/// new one), and whether they widened: integers compared exactly, other
/// numbers as floating point.
fn range_change(before: Option<&ArgumentRange>, after: Option<&ArgumentRange>) -> (bool, bool) {
    use std::cmp::Ordering;
    let (old_min, old_max) = before.map_or((None, None), |r| (r.min(), r.max()));
    let (new_min, new_max) = after.map_or((None, None), |r| (r.min(), r.max()));
    // A bound that appears narrows; one that goes widens.
    let moved =
        |old: Option<&serde_json::Number>, new: Option<&serde_json::Number>, tighter: Ordering| {
            match (old, new) {
                (None, Some(_)) => (true, false),
                (Some(_), None) => (false, true),
                (Some(old), Some(new)) => match compare(new, old) {
                    Some(order) if order == tighter => (true, false),
                    Some(Ordering::Equal) | None => (false, false),
                    Some(_) => (false, true),
                },
                (None, None) => (false, false),
            }
        };
    let (min_narrower, min_wider) = moved(old_min, new_min, Ordering::Greater);
    let (max_narrower, max_wider) = moved(old_max, new_max, Ordering::Less);
    (min_narrower || max_narrower, min_wider || max_wider)
}

/// Two JSON numbers in order: exactly when both are integers.
fn compare(a: &serde_json::Number, b: &serde_json::Number) -> Option<std::cmp::Ordering> {
    let exact = |n: &serde_json::Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (exact(a), exact(b)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

impl fmt::Display for Changes {
    /// One line per change, breaking first, its kind, what changed and
    /// where the new definition is: "breaking: argument-now-required:
    /// argument `name` of `greet` is now required (src/lib.rs:3)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for change in self.iter() {
            let class = match change.kind.class() {
                ChangeClass::Breaking => "breaking",
                ChangeClass::Compatible => "compatible",
                ChangeClass::Info => "info",
            };
            write!(f, "{class}: {}: {}", change.kind.as_str(), change.message)?;
            if let Some(place) = &change.place {
                write!(f, " ({})", Escaped::new(place))?;
            }
            writeln!(f)?;
        }
        if self.omitted() > 0 {
            writeln!(
                f,
                "... and {} more changes, past the {MAX_CHANGES} reported",
                self.omitted()
            )?;
        }
        Ok(())
    }
}
