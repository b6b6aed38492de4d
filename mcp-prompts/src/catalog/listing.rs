//! `prompts/list` pages: each prompt as its revision shows it, cut into
//! pages with opaque cursors, serialized once.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as CURSOR;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{AnyPrompt, ArgInfo, Entry};
use crate::protocol::ProtocolVersion;

/// The listing differs only between revisions without titles (before
/// 2025-06-18) and with them.
#[derive(Clone, Copy)]
pub(super) enum Titles {
    Omitted = 0,
    Shown = 1,
}

impl Titles {
    pub(super) fn of(version: ProtocolVersion) -> Self {
        if version.has_titles() {
            Self::Shown
        } else {
            Self::Omitted
        }
    }
}

pub(super) fn paginate(entries: &[Entry], titles: Titles, page_size: usize) -> Vec<Box<str>> {
    let size = if page_size == 0 {
        entries.len().max(1)
    } else {
        page_size
    };
    let chunks: Vec<&[Entry]> = if entries.is_empty() {
        vec![&[]]
    } else {
        entries.chunks(size).collect()
    };
    let count = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, chunk)| {
            let next = (i + 1 < count).then(|| encode_cursor(i + 1));
            let page = Page {
                prompts: chunk,
                titles,
                next_cursor: next.as_deref(),
            };
            // Only strings and bools: serializing cannot fail.
            serde_json::to_string(&page)
                .unwrap_or_default()
                .into_boxed_str()
        })
        .collect()
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

struct Page<'a> {
    prompts: &'a [Entry],
    titles: Titles,
    next_cursor: Option<&'a str>,
}

impl Serialize for Page<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Prompts<'a>(&'a [Entry], Titles);
        impl Serialize for Prompts<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.len()))?;
                for entry in self.0 {
                    seq.serialize_element(&Listing(&entry.prompt, self.1))?;
                }
                seq.end()
            }
        }
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("prompts", &Prompts(self.prompts, self.titles))?;
        if let Some(cursor) = self.next_cursor {
            map.serialize_entry("nextCursor", cursor)?;
        }
        map.end()
    }
}

struct Listing<'a>(&'a AnyPrompt, Titles);

impl Serialize for Listing<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Self(prompt, titles) = *self;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", prompt.name())?;
        if let (Titles::Shown, Some(title)) = (titles, prompt.title()) {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = prompt.description() {
            map.serialize_entry("description", description)?;
        }
        let arguments = prompt.arguments();
        if !arguments.is_empty() {
            let listed: Vec<ArgListing<'_>> = arguments
                .iter()
                .map(|arg| ArgListing(arg, titles))
                .collect();
            map.serialize_entry("arguments", &listed)?;
        }
        map.end()
    }
}

struct ArgListing<'a>(&'a ArgInfo<'a>, Titles);

impl Serialize for ArgListing<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Self(arg, titles) = *self;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", arg.name)?;
        if let (Titles::Shown, Some(title)) = (titles, arg.title) {
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
