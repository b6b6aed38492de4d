//! `prompts/list` pages: each prompt as its revision shows it, cut into
//! pages with opaque cursors, serialized once.

use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;

use crate::protocol::cursor;

use serde_json::{Map, Value};

use super::languages::Order;
use super::words::{PlacedWords, Words};
use super::{AnyPrompt, ArgInfo, Entry};
use crate::presentation::Icon;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::{Cached, Page};

/// The fields a listing shows, by revision: titles and `_meta` from
/// 2025-06-18, icons from 2025-11-25.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub(super) enum Fields {
    Basic = 0,
    Titled = 1,
    WithIcons = 2,
}

impl Fields {
    pub(super) const ALL: [Self; 3] = [Self::Basic, Self::Titled, Self::WithIcons];

    pub(super) fn of(version: ProtocolVersion) -> Self {
        if version.has_icons() {
            Self::WithIcons
        } else if version.has_titles() {
            Self::Titled
        } else {
            Self::Basic
        }
    }
}

/// How many prompts a page of `len` holds: `page_size`, or all (at least
/// one place) when it is 0.
fn page_len(len: usize, page_size: usize) -> usize {
    if page_size == 0 {
        len.max(1)
    } else {
        page_size
    }
}

/// Where a page starts and ends among `len` prompts, `page_size` to a
/// page (0: all on one), and whether another follows.
pub(super) fn bounds(len: usize, page_size: usize, page: usize) -> (Range<usize>, bool) {
    let size = page_len(len, page_size);
    let start = (page * size).min(len);
    let end = (start + size).min(len);
    (start..end, end < len)
}

/// How many pages `len` prompts fill (at least one, maybe empty).
pub(super) fn page_count(len: usize, page_size: usize) -> usize {
    len.div_ceil(page_len(len, page_size)).max(1)
}

/// One page as served: its prompts serialized once, up front, and the
/// next page's cursor; shared with every result that shows it.
pub(super) struct CachedPage {
    prompts: Arc<RawValue>,
    next_cursor: Option<Arc<str>>,
    /// The best rank in the order of languages that a prompt of the page
    /// is shown in; `None`: all in the default.
    best: Option<usize>,
}

/// Serializes every page of `entries` as `fields` shows them, each prompt
/// in the first language of `order` it has.
pub(super) fn paginate(
    entries: &[Entry],
    fields: Fields,
    page_size: usize,
    order: InOrder<'_>,
) -> Vec<CachedPage> {
    (0..page_count(entries.len(), page_size))
        .map(|page| paginated(entries, fields, (page_size, page), order))
        .collect()
}

/// Serializes page `page` of `entries`, `page_size` to a page, as
/// [`paginate`] does each.
pub(super) fn paginated(
    entries: &[Entry],
    fields: Fields,
    (page_size, page): (usize, usize),
    order: InOrder<'_>,
) -> CachedPage {
    let (range, more) = bounds(entries.len(), page_size, page);
    let (shown, best) = shown_in(entries[range].iter(), fields, order);
    let prompts = PromptList(&shown);
    CachedPage {
        // Only strings and bools: serializing cannot fail.
        prompts: serialized(&prompts),
        next_cursor: more.then(|| cursor::encode(page + 1).into()),
        best,
    }
}

/// An order of languages, and the words of each language of the catalog.
pub(super) type InOrder<'w> = (&'w Order, &'w PlacedWords);

/// `entries` as `fields` shows them, each in the first language of
/// `order` it has (with the server's words in it), and the best rank
/// among those languages.
pub(super) fn shown_in<'a>(
    entries: impl Iterator<Item = &'a Entry>,
    fields: Fields,
    (order, words): InOrder<'_>,
) -> (Vec<Shown<'a>>, Option<usize>) {
    let mut best: Option<usize> = None;
    let shown = entries
        .map(|entry| {
            let (prompt, rank) = entry.in_order(order);
            best = match (best, rank) {
                (Some(b), Some(r)) => Some(b.min(r)),
                (b, r) => b.or(r),
            };
            // Icons and `_meta` are the prompt's in every language.
            let shown_as = (entry.prompt.icons(), entry.meta.as_ref());
            let words = words.at(rank.and_then(|rank| order.at(rank)));
            Shown::of(prompt, (shown_as, words), fields)
        })
        .collect();
    (shown, best)
}

impl CachedPage {
    /// The page as a result, the same for everyone who may see it all.
    pub(super) fn page(&self) -> Page {
        let (prompts, next) = (Arc::clone(&self.prompts), self.next_cursor.clone());
        Page::new(PROMPTS, prompts, next, Cached::Shared)
    }

    /// The best rank in the order of languages that a prompt of the page
    /// is shown in.
    pub(super) fn best(&self) -> Option<usize> {
        self.best
    }

    /// The bytes it holds.
    pub(super) fn size(&self) -> usize {
        self.prompts.get().len()
    }

    /// A page of `prompts` (a JSON array), for tests of what keeps pages.
    #[cfg(test)]
    pub(super) fn for_test(prompts: &str) -> Self {
        Self {
            prompts: Arc::from(RawValue::from_string(prompts.to_owned()).unwrap()),
            next_cursor: None,
            best: None,
        }
    }
}

/// The key of a `prompts/list` result's items.
const PROMPTS: &str = "prompts";

/// Only strings and bools: serializing a listing cannot fail.
fn serialized<T: Serialize>(items: &T) -> Arc<RawValue> {
    Arc::from(serde_json::value::to_raw_value(items).expect("a listing serializes"))
}

/// A page of the prompts one caller may see, serialized for this request
/// alone, and the next page's cursor.
pub(super) fn page_for_caller(shown: &[Shown<'_>], next: Option<String>) -> Page {
    let prompts = serialized(&PromptList(shown));
    Page::new(PROMPTS, prompts, next.map(Into::into), Cached::PerCaller)
}

/// Prompts to list, as a revision shows them.
struct PromptList<'a, 'b>(&'b [Shown<'a>]);

impl Serialize for PromptList<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0)
    }
}

// Our listing writes a prompt through the same view the rmcp adapter
// converts.
impl Serialize for Shown<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let shown = self;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", shown.name())?;
        if let Some(title) = shown.title() {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = shown.description() {
            map.serialize_entry("description", description)?;
        }
        if !shown.icons().is_empty() {
            map.serialize_entry("icons", shown.icons())?;
        }
        if !shown.arguments().is_empty() {
            map.serialize_entry("arguments", shown.arguments())?;
        }
        if let Some(meta) = shown.meta() {
            map.serialize_entry("_meta", meta)?;
        }
        map.end()
    }
}

/// A prompt as a revision lists it: only the fields that revision has
/// (titles and `_meta` from 2025-06-18, icons from 2025-11-25). Our
/// listing serializes it; the rmcp adapter converts it.
pub(crate) struct Shown<'a> {
    name: &'a str,
    title: Option<&'a str>,
    description: Option<&'a str>,
    /// Empty where the revision has no icons.
    icons: &'a [Icon],
    arguments: Vec<ShownArgument>,
    meta: Option<&'a Map<String, Value>>,
}

/// An argument as a revision lists it.
pub(crate) struct ShownArgument {
    name: String,
    title: Option<String>,
    description: Option<String>,
    required: bool,
}

// What our listing writes and the rmcp adapter converts, field by field.
impl<'a> Shown<'a> {
    pub(crate) fn name(&self) -> &'a str {
        self.name
    }

    pub(crate) fn title(&self) -> Option<&'a str> {
        self.title
    }

    pub(crate) fn description(&self) -> Option<&'a str> {
        self.description
    }

    /// Empty where the revision has no icons.
    pub(crate) fn icons(&self) -> &'a [Icon] {
        self.icons
    }

    pub(crate) fn meta(&self) -> Option<&'a Map<String, Value>> {
        self.meta
    }

    pub(crate) fn arguments(&self) -> &[ShownArgument] {
        &self.arguments
    }
}

impl ShownArgument {
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    pub(crate) fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    pub(crate) fn required(&self) -> bool {
        self.required
    }
}

/// `text` with its first letter capitalized, whatever its script (`à
/// partir de 1` → `À partir de 1`).
fn capitalized(mut text: String) -> String {
    if let Some(first) = text.chars().next() {
        let upper: String = first.to_uppercase().collect();
        text.replace_range(..first.len_utf8(), &upper);
    }
    text
}

/// A prompt's icons and `_meta`, the same in every language.
type ShownAs<'a> = (&'a [Icon], Option<&'a Map<String, Value>>);

impl<'a> Shown<'a> {
    /// `prompt`, listed with `icons` and `meta`, as `fields` shows them.
    pub(super) fn of(
        prompt: &'a AnyPrompt,
        ((icons, meta), words): (ShownAs<'a>, &Words),
        fields: Fields,
    ) -> Self {
        let titled = fields >= Fields::Titled;
        let arguments = prompt
            .arguments()
            .iter()
            .map(|arg| ShownArgument {
                name: arg.name().to_owned(),
                title: arg.title().filter(|_| titled).map(str::to_owned),
                description: described(arg, words),
                required: arg.required(),
            })
            .collect();
        Shown {
            name: prompt.name(),
            title: prompt.title().filter(|_| titled),
            description: prompt.description(),
            icons: if fields >= Fields::WithIcons {
                icons
            } else {
                &[]
            },
            arguments,
            meta: meta.filter(|_| titled),
        }
    }
}

impl Serialize for ShownArgument {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", self.name())?;
        if let Some(title) = self.title() {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = self.description() {
            map.serialize_entry("description", description)?;
        }
        map.serialize_entry("required", &self.required())?;
        map.end()
    }
}

/// An argument's description as listed. `PromptArgument` has no `_meta`
/// in any revision, so choices and a default are shown where every client
/// displays them: at the end of the description.
fn described(arg: &ArgInfo<'_>, words: &Words) -> Option<String> {
    let notes = words.notes(
        arg.format(),
        arg.range().as_ref(),
        arg.choices(),
        arg.default(),
    );
    match (arg.description(), notes) {
        (Some(d), Some(notes)) => Some(format!("{d} ({notes})")),
        (None, Some(notes)) => Some(capitalized(notes)),
        (Some(d), None) => Some(d.to_owned()),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::capitalized;

    #[test]
    fn notes_are_capitalized_in_any_script() {
        assert_eq!(capitalized("one of: a".to_owned()), "One of: a");
        assert_eq!(capitalized("à partir de 1".to_owned()), "À partir de 1");
        assert_eq!(capitalized("не меньше 1".to_owned()), "Не меньше 1");
        assert_eq!(capitalized("最少 1".to_owned()), "最少 1");
        assert_eq!(capitalized(String::new()), "");
    }
}
