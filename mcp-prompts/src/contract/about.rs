//! The changes to one prompt and its arguments: required or not, types,
//! ranges, choices, defaults and what is shown.

use std::collections::{HashMap, HashSet};

use super::changes::Changes;
use super::document::{ArgumentEntry, ArgumentRange, PromptEntry};
use super::kind::{Change, ChangeKind};
use crate::error::excerpt;

/// The prompt (and argument) the changes being found are about.
pub(super) struct About<'a> {
    prompt: &'a str,
    argument: Option<String>,
    place: Option<String>,
    changes: &'a mut Changes,
}

impl<'a> About<'a> {
    /// The changes to prompt `prompt`, defined at `place` if known, found
    /// into `changes`.
    pub(super) fn new(prompt: &'a str, place: Option<String>, changes: &'a mut Changes) -> Self {
        Self {
            prompt,
            argument: None,
            place,
            changes,
        }
    }

    pub(super) fn push(&mut self, kind: ChangeKind, choice: Option<&str>, message: String) {
        let about = (
            Some(self.prompt.to_owned()),
            self.argument.clone(),
            choice.map(str::to_owned),
        );
        let change = Change::new(kind, about, None, message, self.place.clone());
        self.changes.push(change);
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

    pub(super) fn prompt_changes(&mut self, before: &PromptEntry, after: &PromptEntry) {
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
        for language in after.languages() {
            if !before.languages().contains(language) {
                let message = format!("{} is now in `{}` too", self.subject(), excerpt(language));
                self.push(ChangeKind::LanguageAdded, None, message);
            }
        }
        for language in before.languages() {
            if !after.languages().contains(language) {
                let message = format!(
                    "{} is no longer in `{}`: requests preferring it get the default",
                    self.subject(),
                    excerpt(language)
                );
                self.push(ChangeKind::LanguageRemoved, None, message);
            }
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
                let missing = |list: &'_ [String], other: &HashSet<String>| {
                    list.iter()
                        .filter(|c| !other.contains(&c.to_lowercase()))
                        .cloned()
                        .collect::<Vec<_>>()
                };
                for choice in &missing(was, &is_folded) {
                    let message =
                        format!("{} no longer takes `{}`", self.subject(), excerpt(choice));
                    self.push(ChangeKind::ChoiceRemoved, Some(choice), message);
                }
                for choice in &missing(is, &was_folded) {
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
