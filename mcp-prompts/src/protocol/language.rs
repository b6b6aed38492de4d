//! A request's language preference (SEP-2792): what
//! `_meta["io.modelcontextprotocol/acceptLanguage"]` says, in
//! `Accept-Language` syntax, read once per request; and the RFC 4647
//! lookup that picks, among the languages one item has, the one to
//! answer in. Nothing is kept between requests.

use std::fmt;
use std::sync::{Arc, LazyLock};

use memchr::memmem;
use serde::Deserialize;
use serde_json::value::RawValue;

/// The `_meta` key of a request's language preference.
pub(crate) const ACCEPT_LANGUAGE: &str = "io.modelcontextprotocol/acceptLanguage";
/// The result `_meta` key naming the language an answer is in.
pub(crate) const CONTENT_LANGUAGE: &str = "io.modelcontextprotocol/contentLanguage";

/// The longest preference read, in bytes; a longer one is treated as
/// absent. Browsers send under 100.
const MAX_PREFERENCE_BYTES: usize = 512;
/// The most ranges a preference may weigh; more is treated as absent.
const MAX_RANGES: usize = 16;
/// The longest language tag taken for a language (RFC 5646 asks for 35
/// at least).
const MAX_TAG_BYTES: usize = 64;

/// A language, as a well-formed BCP 47 tag in its conventional case
/// (`fr`, `de-CH`, `zh-Hant-TW`); compared without regard to case.
#[derive(Clone)]
pub(crate) struct Language {
    tag: Arc<str>,
}

impl Language {
    /// `tag` if it is a well-formed BCP 47 tag, in its conventional case.
    pub(crate) fn parse(tag: &str) -> Option<Self> {
        if tag.len() > MAX_TAG_BYTES {
            return None;
        }
        let parsed = language_tags::LanguageTag::parse(tag).ok()?;
        Some(Self {
            tag: parsed.as_str().into(),
        })
    }

    /// The tag.
    pub(crate) fn as_str(&self) -> &str {
        &self.tag
    }

    /// Whether it is `tag`, whatever the case.
    pub(crate) fn is(&self, tag: &str) -> bool {
        self.tag.eq_ignore_ascii_case(tag)
    }
}

impl PartialEq for Language {
    fn eq(&self, other: &Self) -> bool {
        self.is(&other.tag)
    }
}

impl Eq for Language {}

impl fmt::Debug for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.tag)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.tag)
    }
}

/// One weighted language range, lower case; `*` stands for the server's
/// default language.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Range {
    range: Box<str>,
    /// Thousandths: 0 excludes, 1000 is most wanted.
    weight: u16,
}

/// What a request prefers, as RFC 4647 lookup reads it: the ranges it
/// accepts, most wanted first (equal weights in the order sent), and
/// those it refuses (`q=0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Preference {
    accepted: Box<[Range]>,
    refused: Box<[Box<str>]>,
}

/// Which language lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found<T> {
    /// One the item has, matched by a range.
    Matched(T),
    /// The default language: named by `*`, or nothing matched.
    Default,
}

impl Preference {
    /// `text` in `Accept-Language` syntax; `None` when it is malformed,
    /// past the bounds, or accepts nothing.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        if text.len() > MAX_PREFERENCE_BYTES {
            return None;
        }
        let mut accepted = Vec::new();
        let mut refused = Vec::new();
        // Empty list elements are allowed (RFC 9110 §5.6.1).
        for item in text.split(',').map(trim).filter(|item| !item.is_empty()) {
            if accepted.len() + refused.len() == MAX_RANGES {
                return None;
            }
            let (range, weight) = match item.split_once(';') {
                None => (item, 1000),
                Some((range, weight)) => (trim(range), parse_weight(trim(weight))?),
            };
            if !is_range(range) {
                return None;
            }
            let range = range.to_ascii_lowercase().into_boxed_str();
            if weight == 0 {
                refused.push(range);
            } else {
                accepted.push(Range { range, weight });
            }
        }
        if accepted.is_empty() && refused.is_empty() {
            return None;
        }
        // Stable: equal weights keep the order sent.
        accepted.sort_by_key(|range| std::cmp::Reverse(range.weight));
        Some(Self {
            accepted: accepted.into(),
            refused: refused.into(),
        })
    }

    /// The preference a request's `params` carry in `_meta`, if any and
    /// well formed: a malformed one is treated as absent, never refused.
    /// Cheap for the requests that carry none: unless the text names the
    /// key (or holds an escape that could spell it), nothing is parsed.
    pub(crate) fn of(params: Option<&RawValue>) -> Option<Self> {
        static KEY: LazyLock<memmem::Finder<'static>> =
            LazyLock::new(|| memmem::Finder::new(ACCEPT_LANGUAGE));
        let text = params?.get();
        if !(KEY.find(text.as_bytes()).is_some() || super::modern::has_key_escape(text)) {
            return None;
        }
        Self::in_params(text)
    }

    /// Reads `_meta`'s preference out of `params` text.
    fn in_params(params: &str) -> Option<Self> {
        #[derive(Deserialize)]
        struct Params<'a> {
            #[serde(rename = "_meta", borrow)]
            meta: Option<Meta<'a>>,
        }
        #[derive(Deserialize)]
        struct Meta<'a> {
            #[serde(rename = "io.modelcontextprotocol/acceptLanguage", borrow)]
            preference: Option<&'a RawValue>,
        }
        let params: Params<'_> = serde_json::from_str(params).ok()?;
        let raw = params.meta?.preference?;
        let text: std::borrow::Cow<'_, str> = serde_json::from_str(raw.get()).ok()?;
        Self::parse(&text)
    }

    /// RFC 4647 lookup: for each range, most wanted first, the first of
    /// the range and its ever shorter prefixes that `has` knows (`has`
    /// matches a lower-case tag), skipping those refused; `*` stands for
    /// the default language.
    pub(crate) fn lookup<T>(&self, mut has: impl FnMut(&str) -> Option<T>) -> Found<T> {
        for range in &self.accepted {
            if &*range.range == "*" {
                return Found::Default;
            }
            for candidate in prefixes(&range.range) {
                if self.refused.iter().any(|r| **r == *candidate) {
                    continue;
                }
                if let Some(found) = has(candidate) {
                    return Found::Matched(found);
                }
            }
        }
        Found::Default
    }

    /// The tags lookup tries, in order, each once: what decides every
    /// item's language. `*` is written as itself.
    pub(crate) fn candidates(&self) -> impl Iterator<Item = &str> + '_ {
        self.accepted.iter().flat_map(|range| {
            let wildcard = &*range.range == "*";
            prefixes(&range.range)
                .take(if wildcard { 1 } else { usize::MAX })
                .filter(|candidate| !self.refused.iter().any(|r| **r == **candidate))
        })
    }
}

/// `range` and its ever shorter prefixes, as RFC 4647 §3.4 truncates
/// them: a subtag at a time, dropping a single-letter one left at the
/// end (`zh-hant-cn-x-private` → `zh-hant-cn` → `zh-hant` → `zh`).
fn prefixes(range: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(range);
    std::iter::from_fn(move || {
        let current = next?;
        let mut shorter = current.rfind('-').map(|at| &current[..at]);
        while let Some(rest) = shorter {
            match rest.rfind('-') {
                Some(at) if rest.len() - at == 2 => shorter = Some(&rest[..at]),
                _ => break,
            }
        }
        next = shorter;
        Some(current)
    })
}

/// Optional white space trimmed (spaces and tabs).
fn trim(text: &str) -> &str {
    text.trim_matches([' ', '\t'])
}

/// `*`, or subtags of one to eight letters (the first) or letters and
/// digits, joined by `-` (RFC 4647 §2.1).
fn is_range(range: &str) -> bool {
    if range == "*" {
        return true;
    }
    let mut subtags = range.split('-');
    let first = subtags.next().unwrap_or_default();
    let fits = |s: &str, alpha: bool| {
        (1..=8).contains(&s.len())
            && s.bytes().all(|b| {
                if alpha {
                    b.is_ascii_alphabetic()
                } else {
                    b.is_ascii_alphanumeric()
                }
            })
    };
    fits(first, true) && subtags.all(|s| fits(s, false))
}

/// `q=` and a weight from 0 to 1 with at most three decimals, in
/// thousandths.
fn parse_weight(text: &str) -> Option<u16> {
    let value = text
        .strip_prefix("q=")
        .or_else(|| text.strip_prefix("Q="))?;
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = format!("{fraction:0<3}").parse::<u16>().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
