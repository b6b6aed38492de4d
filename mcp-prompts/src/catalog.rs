//! The set of prompts a server serves: gathered, validated, and with its
//! `prompts/list` pages serialized once, up front.

use std::collections::HashMap;
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as CURSOR;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::complete::ArgCompletion;
use crate::descriptor::{ArgDef, PromptDef};
use crate::error::excerpt;
use crate::{Error, ProtocolVersion};

/// Every prompt registered with `#[prompt]` in this binary, in no set order.
///
/// ```
/// #[mcp_prompts::prompt]
/// /// Say hello
/// fn hello() -> String {
///     "Hello!".into()
/// }
///
/// assert!(mcp_prompts::registered_prompts().any(|p| p.name() == "hello"));
/// ```
pub fn registered_prompts() -> impl Iterator<Item = &'static PromptDef> {
    inventory::iter::<crate::__private::Registration>
        .into_iter()
        .map(|registration| registration.0)
}

/// An explicit list of prompts, checked at compile time: build it with
/// [`catalog!`](crate::catalog!) and serve it with
/// [`Server::catalog`](crate::Server::catalog).
pub type Catalog = &'static [&'static PromptDef];

/// Why a set of prompts cannot be served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogError {
    problems: Vec<String>,
}

impl CatalogError {
    /// Each problem found, one sentence each.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid prompt catalog: {}", self.problems.join("; "))
    }
}

impl std::error::Error for CatalogError {}

/// The listing differs only between revisions without and with titles.
#[derive(Clone, Copy)]
enum Era {
    Untitled = 0,
    Titled = 1,
}

impl Era {
    fn of(version: ProtocolVersion) -> Self {
        if version.has_titles() {
            Self::Titled
        } else {
            Self::Untitled
        }
    }
}

pub(crate) struct Entry {
    pub(crate) def: &'static PromptDef,
    /// Names of the arguments the client must send.
    pub(crate) required: Box<[&'static str]>,
    /// How each argument the client sees is completed, in order.
    completions: Box<[(&'static str, ArgCompletion)]>,
}

impl Entry {
    /// How argument `name` is completed; `None` if the prompt has no such
    /// argument.
    pub(crate) fn completion(&self, name: &str) -> Option<&ArgCompletion> {
        self.completions
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| c)
    }
}

pub(crate) struct ServedPrompts {
    entries: Vec<Entry>,
    index: HashMap<&'static str, usize>,
    /// `prompts/list` results, per era, per page.
    pages: [Vec<Box<str>>; 2],
}

impl ServedPrompts {
    /// Validates `defs` and serializes the listing. `page_size` 0 = one page.
    pub(crate) fn build(
        defs: impl IntoIterator<Item = &'static PromptDef>,
        page_size: usize,
    ) -> Result<Self, CatalogError> {
        let mut defs: Vec<&'static PromptDef> = defs.into_iter().collect();
        defs.sort_by(|a, b| {
            a.name
                .cmp(b.name)
                .then(a.file.cmp(b.file))
                .then(a.line.cmp(&b.line))
        });

        let mut problems = Vec::new();
        let mut index = HashMap::with_capacity(defs.len());
        let mut entries: Vec<Entry> = Vec::with_capacity(defs.len());
        for def in defs {
            if let Some(&first) = index.get(def.name) {
                let first: &Entry = &entries[first];
                // The same prompt from two sources (inventory and a catalog).
                if first.def.same_as(def) {
                    continue;
                }
                problems.push(format!(
                    "duplicate prompt name `{}`: defined at {} and at {}",
                    def.name,
                    first.def.location(),
                    def.location()
                ));
                continue;
            }
            validate(def, &mut problems);
            index.insert(def.name, entries.len());
            let required = def
                .arguments()
                .filter(|a| a.required())
                .map(|a| a.name)
                .collect();
            let completions = def
                .arguments()
                .map(|a| (a.name, ArgCompletion::for_arg(a)))
                .collect();
            entries.push(Entry {
                def,
                required,
                completions,
            });
        }
        if !problems.is_empty() {
            return Err(CatalogError { problems });
        }
        let pages = [Era::Untitled, Era::Titled].map(|era| paginate(&entries, era, page_size));
        Ok(Self {
            entries,
            index,
            pages,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether any argument of any prompt can be completed.
    pub(crate) fn has_completions(&self) -> bool {
        self.entries
            .iter()
            .any(|e| e.completions.iter().any(|(_, c)| c.is_something()))
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Entry> {
        self.index.get(name).map(|&i| &self.entries[i])
    }

    /// The serialized `prompts/list` result for a cursor.
    pub(crate) fn page(
        &self,
        version: ProtocolVersion,
        cursor: Option<&str>,
    ) -> Result<&str, Error> {
        let pages = &self.pages[Era::of(version) as usize];
        let page = match cursor {
            None => 0,
            Some(cursor) => decode_cursor(cursor)
                .filter(|&p| p > 0 && p < pages.len())
                .ok_or_else(|| {
                    Error::invalid_params(format!("invalid cursor: `{}`", excerpt(cursor)))
                })?,
        };
        Ok(&pages[page])
    }
}

/// Rules the macro already enforces, checked again for definitions that did
/// not come from it, plus defaults, which only parsing can check.
fn validate(def: &PromptDef, problems: &mut Vec<String>) {
    if !is_valid_name(def.name) {
        problems.push(format!(
            "prompt name `{}` at {} must be 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`",
            def.name,
            def.location()
        ));
    }
    for (i, arg) in def.arguments.iter().enumerate() {
        if def.arguments[..i].iter().any(|a| a.name == arg.name) {
            problems.push(format!(
                "prompt `{}` declares argument `{}` twice",
                def.name, arg.name
            ));
        }
        if let Some(default) = arg.default {
            if let Err(reason) = (arg.ty.check)(default) {
                problems.push(format!(
                    "prompt `{}`: default `{default}` of argument `{}` does not parse: {reason}",
                    def.name, arg.name
                ));
            }
        }
    }
}

/// The name rule MCP gives tools, applied to prompts and their arguments.
pub(crate) fn is_valid_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn paginate(entries: &[Entry], era: Era, page_size: usize) -> Vec<Box<str>> {
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
                era,
                next_cursor: next.as_deref(),
            };
            // Only strings and bools: serializing cannot fail.
            serde_json::to_string(&page)
                .unwrap_or_default()
                .into_boxed_str()
        })
        .collect()
}

fn encode_cursor(page: usize) -> String {
    CURSOR.encode(format!("page:{page}"))
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = CURSOR.decode(cursor).ok()?;
    std::str::from_utf8(&bytes)
        .ok()?
        .strip_prefix("page:")?
        .parse()
        .ok()
}

struct Page<'a> {
    prompts: &'a [Entry],
    era: Era,
    next_cursor: Option<&'a str>,
}

impl Serialize for Page<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Prompts<'a>(&'a [Entry], Era);
        impl Serialize for Prompts<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.len()))?;
                for entry in self.0 {
                    seq.serialize_element(&Listing(entry.def, self.1))?;
                }
                seq.end()
            }
        }
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("prompts", &Prompts(self.prompts, self.era))?;
        if let Some(cursor) = self.next_cursor {
            map.serialize_entry("nextCursor", cursor)?;
        }
        map.end()
    }
}

struct Listing(&'static PromptDef, Era);

impl Serialize for Listing {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Args(&'static PromptDef, Era);
        impl Serialize for Args {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(None)?;
                for arg in self.0.arguments() {
                    seq.serialize_element(&ArgListing(arg, self.1))?;
                }
                seq.end()
            }
        }
        let Self(def, era) = *self;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", def.name)?;
        if let (Era::Titled, Some(title)) = (era, def.title) {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = def.description {
            map.serialize_entry("description", description)?;
        }
        if def.arguments().next().is_some() {
            map.serialize_entry("arguments", &Args(def, era))?;
        }
        map.end()
    }
}

struct ArgListing(&'static ArgDef, Era);

impl Serialize for ArgListing {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Self(arg, era) = *self;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", arg.name)?;
        if let (Era::Titled, Some(title)) = (era, arg.title) {
            map.serialize_entry("title", title)?;
        }
        // PromptArgument has no `_meta` in any revision, so choices and a
        // default are shown where every client displays them: at the end of
        // the description.
        match (arg.description, notes(arg)) {
            (Some(d), Some(notes)) => {
                map.serialize_entry("description", &format!("{d} ({notes})"))?;
            }
            (None, Some(notes)) => {
                let mut notes = notes;
                notes[..1].make_ascii_uppercase();
                map.serialize_entry("description", &notes)?;
            }
            (Some(d), None) => map.serialize_entry("description", d)?,
            (None, None) => {}
        }
        map.serialize_entry("required", &arg.required())?;
        map.end()
    }
}

/// "one of: formal, casual; default: casual", or `None` when there is
/// nothing to say.
fn notes(arg: &ArgDef) -> Option<String> {
    let choices = arg.choices();
    let choices = (!choices.is_empty()).then(|| format!("one of: {}", choices.join(", ")));
    let default = arg.default().map(|d| format!("default: {d}"));
    match (choices, default) {
        (Some(c), Some(d)) => Some(format!("{c}; {d}")),
        (one, other) => one.or(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rule() {
        assert!(is_valid_name("code_review"));
        assert!(is_valid_name("a.b-c_D9"));
        assert!(!is_valid_name(""));
        assert!(!is_valid_name("has space"));
        assert!(!is_valid_name("é"));
        assert!(!is_valid_name(&"x".repeat(129)));
    }

    #[test]
    fn cursors_round_trip() {
        assert_eq!(decode_cursor(&encode_cursor(3)), Some(3));
        assert_eq!(decode_cursor("nope"), None);
    }
}
