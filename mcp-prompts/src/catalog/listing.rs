//! `prompts/list` pages: each prompt as its revision shows it, cut into
//! pages with opaque cursors, serialized once.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as CURSOR;
use std::borrow::Cow;
use std::ops::Range;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;

use super::{ArgInfo, Entry};
use crate::protocol::ProtocolVersion;

/// The fields a listing shows, by revision: titles and `_meta` from
/// 2025-06-18, icons from 2025-11-25.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
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
/// next page's cursor.
pub(super) struct CachedPage {
    prompts: Box<RawValue>,
    next_cursor: Option<Box<str>>,
}

/// Serializes every page of `entries` as `fields` shows them.
pub(super) fn paginate(entries: &[Entry], fields: Fields, page_size: usize) -> Vec<CachedPage> {
    (0..page_count(entries.len(), page_size))
        .map(|page| {
            let (range, more) = bounds(entries.len(), page_size, page);
            let prompts = PromptList(&entries[range], fields);
            CachedPage {
                // Only strings and bools: serializing cannot fail.
                prompts: serde_json::value::to_raw_value(&prompts).expect("a listing serializes"),
                next_cursor: more.then(|| encode_cursor(page + 1).into_boxed_str()),
            }
        })
        .collect()
}

impl CachedPage {
    pub(super) fn page(&self) -> Page<'_> {
        Page {
            prompts: Cow::Borrowed(&self.prompts),
            next_cursor: self.next_cursor.as_deref().map(Cow::Borrowed),
        }
    }
}

/// Page `page` of `entries` (the prompts one caller may see), serialized
/// for this request alone.
pub(super) fn page_of<'a>(
    entries: &[&Entry],
    fields: Fields,
    page_size: usize,
    page: usize,
) -> Page<'a> {
    let (range, more) = bounds(entries.len(), page_size, page);
    let prompts = PromptList(&entries[range], fields);
    Page {
        prompts: Cow::Owned(
            serde_json::value::to_raw_value(&prompts).expect("a listing serializes"),
        ),
        next_cursor: more.then(|| Cow::Owned(encode_cursor(page + 1))),
    }
}

pub(super) fn encode_cursor(page: usize) -> String {
    CURSOR.encode(format!("page:{page}"))
}

pub(super) fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = CURSOR.decode(cursor).ok()?;
    std::str::from_utf8(&bytes)
        .ok()?
        .strip_prefix("page:")?
        .parse()
        .ok()
}

/// A `prompts/list` result: the page's prompts and the next cursor.
#[derive(Serialize)]
pub(crate) struct Page<'a> {
    prompts: Cow<'a, RawValue>,
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    next_cursor: Option<Cow<'a, str>>,
}

/// Prompts to list: every entry of a catalog, or those one caller sees.
struct PromptList<'a, E>(&'a [E], Fields);

impl<E: std::borrow::Borrow<Entry>> Serialize for PromptList<'_, E> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Self(entries, fields) = self;
        let mut seq = s.serialize_seq(Some(entries.len()))?;
        for entry in *entries {
            seq.serialize_element(&Listing(entry.borrow(), *fields))?;
        }
        seq.end()
    }
}

struct Listing<'a>(&'a Entry, Fields);

impl Serialize for Listing<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Self(entry, fields) = *self;
        let prompt = &entry.prompt;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", prompt.name())?;
        if let (true, Some(title)) = (fields >= Fields::Titled, prompt.title()) {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = prompt.description() {
            map.serialize_entry("description", description)?;
        }
        let icons = prompt.icons();
        if fields >= Fields::WithIcons && !icons.is_empty() {
            map.serialize_entry("icons", icons)?;
        }
        let arguments = prompt.arguments();
        if !arguments.is_empty() {
            let listed: Vec<ArgListing<'_>> = arguments
                .iter()
                .map(|arg| ArgListing(arg, fields))
                .collect();
            map.serialize_entry("arguments", &listed)?;
        }
        if let (true, Some(meta)) = (fields >= Fields::Titled, &entry.meta) {
            map.serialize_entry("_meta", meta)?;
        }
        map.end()
    }
}

struct ArgListing<'a>(&'a ArgInfo<'a>, Fields);

impl Serialize for ArgListing<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Self(arg, fields) = *self;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", arg.name)?;
        if let (true, Some(title)) = (fields >= Fields::Titled, arg.title) {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = described(arg) {
            map.serialize_entry("description", &description)?;
        }
        map.serialize_entry("required", &arg.required)?;
        map.end()
    }
}

/// An argument's description as listed. `PromptArgument` has no `_meta`
/// in any revision, so choices and a default are shown where every client
/// displays them: at the end of the description.
pub(crate) fn described(arg: &ArgInfo<'_>) -> Option<String> {
    match (arg.description, notes(arg)) {
        (Some(d), Some(notes)) => Some(format!("{d} ({notes})")),
        (None, Some(mut notes)) => {
            notes[..1].make_ascii_uppercase();
            Some(notes)
        }
        (Some(d), None) => Some(d.to_owned()),
        (None, None) => None,
    }
}

/// "one of: formal, casual; default: casual", or `None` when there is
/// nothing to say.
fn notes(arg: &ArgInfo<'_>) -> Option<String> {
    let choices = &arg.choices;
    let choices = (!choices.is_empty()).then(|| format!("one of: {}", choices.join(", ")));
    let default = arg.default.map(|d| format!("default: {d}"));
    match (choices, default) {
        (Some(c), Some(d)) => Some(format!("{c}; {d}")),
        (one, other) => one.or(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip() {
        assert_eq!(decode_cursor(&encode_cursor(3)), Some(3));
        assert_eq!(decode_cursor("nope"), None);
    }
}
