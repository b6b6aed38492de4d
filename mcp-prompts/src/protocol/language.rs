//! A request's language preference (SEP-2792): what
//! `_meta["io.modelcontextprotocol/acceptLanguage"]` says, in
//! `Accept-Language` syntax, read once per request; and the RFC 4647
//! lookup that picks, among the languages one item has, the one to
//! answer in. Nothing is kept between requests.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

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
/// The languages of ISO 639-1, the two-letter codes.
#[cfg(feature = "files")]
const ISO_639_1: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca \
    ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu \
    gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko \
    kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl \
    nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn \
    so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo \
    xh yi yo za zh zu";

/// The longest language tag taken for a language (RFC 5646 asks for 35
/// at least).
const MAX_TAG_BYTES: usize = 64;

/// A language, as a well-formed BCP 47 tag in its conventional case
/// (`fr`, `de-CH`, `zh-Hant-TW`); compared without regard to case.
#[derive(Clone)]
pub(crate) struct Language(Arc<Forms>);

/// A language's tag, and the JSON naming it in a result, written once.
struct Forms {
    tag: Box<str>,
    /// `{"_meta":{"io.modelcontextprotocol/contentLanguage":"TAG"}}`: what
    /// a session's result in it starts with.
    result_head: Box<RawValue>,
}

impl Language {
    /// `tag` if it is a well-formed BCP 47 tag, in its conventional case.
    pub(crate) fn parse(tag: &str) -> Option<Self> {
        if tag.len() > MAX_TAG_BYTES {
            return None;
        }
        let parsed = language_tags::LanguageTag::parse(tag).ok()?;
        let tag = parsed.as_str();
        // A well-formed tag is letters, digits and `-`: nothing to escape.
        let result_head = format!(r#"{{"_meta":{{"{CONTENT_LANGUAGE}":"{tag}"}}}}"#);
        Some(Self(Arc::new(Forms {
            tag: tag.into(),
            result_head: RawValue::from_string(result_head).ok()?,
        })))
    }

    /// `tag` as a prompt file's name gives it (`review.fr.md`,
    /// `review.pt-BR.md`): a language of ISO 639-1 (two letters), with a
    /// script, region or variants after it. A word of three letters or
    /// more (`api`, `short`, `commit`) is a name, not a language, though
    /// BCP 47 would take it; so is one of two that names no language
    /// (`go`).
    #[cfg(feature = "files")]
    pub(crate) fn in_file_name(tag: &str) -> Option<Self> {
        let parsed = language_tags::LanguageTag::parse(tag).ok()?;
        let primary = parsed.primary_language();
        let known = primary.len() == 2
            && parsed.extended_language().is_none()
            && parsed.extension().is_none()
            && parsed.private_use().is_none()
            && ISO_639_1
                .split(' ')
                .any(|code| code.eq_ignore_ascii_case(primary));
        known.then(|| Self::parse(tag)).flatten()
    }

    /// The tag.
    pub(crate) fn as_str(&self) -> &str {
        &self.0.tag
    }

    /// `{"_meta":{"io.modelcontextprotocol/contentLanguage":"TAG"}}`: the
    /// members a session's result in it starts with.
    pub(crate) fn as_result_head(&self) -> &RawValue {
        &self.0.result_head
    }

    /// Whether it is `tag`, whatever the case.
    pub(crate) fn is(&self, tag: &str) -> bool {
        self.0.tag.eq_ignore_ascii_case(tag)
    }
}

impl PartialEq for Language {
    fn eq(&self, other: &Self) -> bool {
        self.is(&other.0.tag)
    }
}

impl Eq for Language {}

impl fmt::Debug for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One weighted language range: where it is in the preference's text
/// (lower case), and its weight in thousandths (0 refuses it). `*` stands
/// for the server's default language.
#[derive(Clone, Copy, Debug, Default)]
struct Range {
    start: u16,
    end: u16,
    weight: u16,
}

/// What a request prefers, as RFC 4647 lookup reads it: its ranges, those
/// it accepts most wanted first (equal weights in the order sent), then
/// those it refuses (`q=0`). One allocation: the text, lower case.
#[derive(Clone, Debug)]
pub(crate) struct Preference {
    text: Box<str>,
    ranges: [Range; MAX_RANGES],
    len: u8,
    /// How many of `ranges` are accepted; the rest are refused.
    accepted: u8,
}

/// Which language lookup found.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found<T> {
    /// One the item has, matched by a range.
    Matched(T),
    /// The default language: named by `*`, or nothing matched.
    Default,
}

impl PartialEq for Preference {
    /// Equal once parsed: the same ranges, with the same weights, in the
    /// same order of preference.
    fn eq(&self, other: &Self) -> bool {
        self.accepted == other.accepted
            && self.len == other.len
            && self.weighted().eq(other.weighted())
    }
}

impl Eq for Preference {}

impl Preference {
    /// `text` in `Accept-Language` syntax; `None` when it is malformed,
    /// past the bounds, or empty. One that only refuses (`fr;q=0`) is a
    /// preference: for the default.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        if text.len() > MAX_PREFERENCE_BYTES {
            return None;
        }
        let lower = text.to_ascii_lowercase().into_boxed_str();
        let mut ranges = [Range::default(); MAX_RANGES];
        let mut len = 0;
        let mut start = 0;
        // Each list element: a range, maybe `;q=` and a weight. Empty
        // elements are allowed (RFC 9110 §5.6.1).
        for end in memchr::memchr_iter(b',', lower.as_bytes()).chain([lower.len()]) {
            let element = (start, end);
            start = end + 1;
            let bytes = &lower.as_bytes()[element.0..element.1];
            let (range, weight) = match memchr::memchr(b';', bytes) {
                None => (trimmed(&lower, element), 1000),
                Some(at) => {
                    let range_end = element.0 + at;
                    let weight = trimmed(&lower, (range_end + 1, element.1));
                    let weight = parse_weight(&lower[weight.0..weight.1])?;
                    (trimmed(&lower, (element.0, range_end)), weight)
                }
            };
            let (range_start, range_end) = range;
            let text = &lower[range_start..range_end];
            // An empty element (`fr,,de`), never an empty range with a weight.
            let (first, last) = trimmed(&lower, element);
            if first == last {
                continue;
            }
            if !is_range(text) {
                return None;
            }
            // A range given twice is the first one, and counts once.
            let seen = ranges[..len]
                .iter()
                .any(|r| lower[usize::from(r.start)..usize::from(r.end)] == *text);
            if seen {
                continue;
            }
            if len == MAX_RANGES {
                return None;
            }
            ranges[len] = Range {
                start: u16::try_from(range_start).ok()?,
                end: u16::try_from(range_end).ok()?,
                weight,
            };
            len += 1;
        }
        if len == 0 {
            return None;
        }
        // Stable: equal weights keep the order sent, and refused ranges
        // (weight 0) go last.
        ranges[..len].sort_by_key(|range| std::cmp::Reverse(range.weight));
        let accepted = ranges[..len].iter().filter(|r| r.weight > 0).count();
        Some(Self {
            text: lower,
            ranges,
            len: u8::try_from(len).ok()?,
            accepted: u8::try_from(accepted).ok()?,
        })
    }

    /// Each range with its weight, most wanted first, the refused last.
    fn weighted(&self) -> impl Iterator<Item = (&str, u16)> + '_ {
        self.ranges[..usize::from(self.len)].iter().map(|r| {
            (
                &self.text[usize::from(r.start)..usize::from(r.end)],
                r.weight,
            )
        })
    }

    /// The ranges accepted, most wanted first.
    fn accepted(&self) -> impl Iterator<Item = &str> + '_ {
        self.weighted()
            .take(usize::from(self.accepted))
            .map(|(range, _)| range)
    }

    /// Whether `tag` (lower case) is refused (`q=0`).
    fn refuses(&self, tag: &str) -> bool {
        self.weighted()
            .skip(usize::from(self.accepted))
            .any(|(range, _)| range == tag)
    }

    /// RFC 4647 lookup: for each range, most wanted first, the first of
    /// the range and its ever shorter prefixes that `has` knows (`has`
    /// matches a lower-case tag), skipping those refused; `*` stands for
    /// the default language. What the catalog's orders of languages give
    /// each prompt (`catalog/languages.rs`), written as the RFC has it:
    /// the tests hold the two to each other.
    #[cfg(test)]
    pub(crate) fn lookup<T>(&self, mut has: impl FnMut(&str) -> Option<T>) -> Found<T> {
        for range in self.accepted() {
            if range == "*" {
                return Found::Default;
            }
            for candidate in prefixes(range) {
                if self.refuses(candidate) {
                    continue;
                }
                if let Some(found) = has(candidate) {
                    return Found::Matched(found);
                }
            }
        }
        Found::Default
    }

    /// The tags lookup tries, in order: what decides every item's
    /// language. `*` is written as itself.
    pub(crate) fn candidates(&self) -> impl Iterator<Item = &str> + '_ {
        self.accepted()
            .flat_map(prefixes)
            .filter(|candidate| !self.refuses(candidate))
    }
}

/// A preference as `_meta` holds it, a JSON string, as text; `None` for a
/// value of another type. A string without escapes is its text between
/// the quotes (valid JSON holds no raw control characters), borrowed.
pub(crate) fn text_of(value: &RawValue) -> Option<Cow<'_, str>> {
    let json = value.get();
    let plain = json
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .filter(|text| memchr::memchr(b'\\', text.as_bytes()).is_none());
    match plain {
        Some(text) => Some(Cow::Borrowed(text)),
        None => serde_json::from_str::<String>(json).ok().map(Cow::Owned),
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

/// Where `text[start..end]` is, optional white space (spaces and tabs)
/// trimmed.
fn trimmed(text: &str, (mut start, mut end): (usize, usize)) -> (usize, usize) {
    let bytes = text.as_bytes();
    while start < end && matches!(bytes[start], b' ' | b'\t') {
        start += 1;
    }
    while end > start && matches!(bytes[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    (start, end)
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
    // Lower case already: `Q=` reads as `q=`.
    let value = text.strip_prefix("q=")?;
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    if fraction.len() > 3 {
        return None;
    }
    let mut thousandths = 0;
    for (place, digit) in fraction.bytes().enumerate() {
        if !digit.is_ascii_digit() {
            return None;
        }
        thousandths += u16::from(digit - b'0') * [100, 10, 1][place];
    }
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
