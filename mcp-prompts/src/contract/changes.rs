//! The changes between two catalog documents, each classified: breaking
//! (a host's saved invocation or an agent's reference stops working),
//! compatible (everything that worked still works), or informational.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::Serialize;

use super::about::About;
use super::document::{Contract, PromptEntry, SkillEntry};
use super::kind::{Change, ChangeClass, ChangeKind};
use crate::error::{Escaped, excerpt};

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
            let mut about = About::new(name, place, &mut changes);
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
            let mut about = About::new(name, place, &mut changes);
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

    pub(super) fn push(&mut self, change: Change) {
        let class = change.kind().class();
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
            let skill = Some(uri.to_owned());
            self.push(Change::new(kind, (None, None, None), skill, message, None));
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

impl fmt::Display for Changes {
    /// One line per change, breaking first, its kind, what changed and
    /// where the new definition is: "breaking: argument-now-required:
    /// argument `name` of `greet` is now required (src/lib.rs:3)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for change in self.iter() {
            let class = match change.kind().class() {
                ChangeClass::Breaking => "breaking",
                ChangeClass::Compatible => "compatible",
                ChangeClass::Info => "info",
            };
            write!(
                f,
                "{class}: {}: {}",
                change.kind().as_str(),
                change.message()
            )?;
            if let Some(place) = change.place() {
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
