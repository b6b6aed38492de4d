//! What a request's `_meta` says that serving it reads: its progress
//! token, the languages it prefers and the version of a prompt it
//! chooses. Read in the same pass as the params around it, each value
//! kept as its JSON text for whoever reads it.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::CowStr;
use super::language::{ACCEPT_LANGUAGE, text_of};

/// The `_meta` key of the label of a prompt's version a request asks for.
pub(crate) const LABEL_META: &str = "mcp-prompts/label";

/// The `_meta` key of the number of a prompt's version a request asks for.
pub(crate) const VERSION_META: &str = "mcp-prompts/version";

/// The `_meta` key of a request's progress token.
const PROGRESS_TOKEN: &str = "progressToken";

/// A request's `_meta`, as far as the server reads it. A `_meta` of
/// another shape (not an object, or naming one of these keys twice) is no
/// error and says nothing, but whether it named a version is kept: which
/// one it meant is unknown, and that is an error where versions are
/// chosen.
#[derive(Default)]
pub(crate) struct RequestMeta<'a> {
    progress_token: Option<&'a RawValue>,
    language: Option<&'a RawValue>,
    label: Option<&'a RawValue>,
    version: Option<&'a RawValue>,
    unread: Option<Unread>,
}

/// Why a `_meta` was not read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unread {
    /// Its text names a version's key.
    NamesChoice,
    Other,
}

impl<'a> RequestMeta<'a> {
    /// The progress token as sent, if `_meta` read.
    pub(crate) fn progress_token(&self) -> Option<&'a RawValue> {
        self.progress_token
    }

    /// The languages the request prefers, as its `_meta` writes them (not
    /// yet parsed); a value that is not a string is none.
    pub(crate) fn preference(&self) -> Option<Cow<'a, str>> {
        self.language.and_then(text_of)
    }

    /// The JSON of the label and of the version number it chooses.
    pub(crate) fn choice(&self) -> (Option<&'a str>, Option<&'a str>) {
        (
            self.label.map(RawValue::get),
            self.version.map(RawValue::get),
        )
    }

    /// Whether it did not read, though its text names a version's key.
    pub(crate) fn names_choice_unread(&self) -> bool {
        self.unread == Some(Unread::NamesChoice)
    }

    /// What a `_meta` that did not read says: nothing.
    fn unread(names_choice: bool) -> Self {
        let unread = if names_choice {
            Unread::NamesChoice
        } else {
            Unread::Other
        };
        Self {
            unread: Some(unread),
            ..Self::default()
        }
    }
}

fn names_choice(text: &str) -> bool {
    text.contains(LABEL_META) || text.contains(VERSION_META)
}

impl<'de: 'a, 'a> Deserialize<'de> for RequestMeta<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MetaVisitor)
    }
}

struct MetaVisitor;

impl<'de> Visitor<'de> for MetaVisitor {
    type Value = RequestMeta<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut meta = RequestMeta::default();
        let mut twice = false;
        while let Some(CowStr(key)) = map.next_key()? {
            let slot = match &*key {
                PROGRESS_TOKEN => &mut meta.progress_token,
                ACCEPT_LANGUAGE => &mut meta.language,
                LABEL_META => &mut meta.label,
                VERSION_META => &mut meta.version,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            twice |= slot.is_some();
            *slot = Some(map.next_value()?);
        }
        if twice {
            let chooses = meta.label.is_some() || meta.version.is_some();
            return Ok(RequestMeta::unread(chooses));
        }
        Ok(meta)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let mut chooses = false;
        while let Some(value) = seq.next_element::<&RawValue>()? {
            chooses |= names_choice(value.get());
        }
        Ok(RequestMeta::unread(chooses))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(RequestMeta::unread(names_choice(v)))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(RequestMeta::unread(false))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(RequestMeta::unread(false))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(RequestMeta::unread(false))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(RequestMeta::unread(false))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(RequestMeta::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(meta: &str) -> RequestMeta<'_> {
        serde_json::from_str(meta).unwrap()
    }

    #[test]
    fn reads_the_keys_it_knows_and_skips_the_rest() {
        let meta = read(
            r#"{"x":{"progressToken":9},"progressToken":"t","mcp-prompts/label":"beta",
                "io.modelcontextprotocol/acceptLanguage":"fr-CH, en;q=0.5","y":[1,2]}"#,
        );
        assert_eq!(meta.progress_token().map(RawValue::get), Some("\"t\""));
        assert_eq!(meta.preference().as_deref(), Some("fr-CH, en;q=0.5"));
        assert_eq!(meta.choice(), (Some("\"beta\""), None));
        assert!(!meta.names_choice_unread());
    }

    #[test]
    fn a_key_written_with_escapes_is_the_key() {
        let meta = read(r#"{"progress\u0054oken":1,"mcp-prompts\/version":2}"#);
        assert_eq!(meta.progress_token().map(RawValue::get), Some("1"));
        assert_eq!(meta.choice(), (None, Some("2")));
    }

    #[test]
    fn a_key_twice_reads_nothing() {
        let meta = read(r#"{"progressToken":1,"progressToken":2}"#);
        assert!(meta.progress_token().is_none());
        assert!(!meta.names_choice_unread());
        let meta = read(r#"{"mcp-prompts/version":1,"mcp-prompts/version":2}"#);
        assert_eq!(meta.choice(), (None, None));
        assert!(meta.names_choice_unread());
    }

    #[test]
    fn other_shapes_read_nothing() {
        for (text, chooses) in [
            ("null", false),
            ("7", false),
            ("true", false),
            (r#""mcp-prompts/label""#, true),
            (r#"["x", {"mcp-prompts/version": 1}]"#, true),
            (r#"["x"]"#, false),
        ] {
            let meta = read(text);
            assert!(meta.progress_token().is_none() && meta.preference().is_none());
            assert_eq!(meta.names_choice_unread(), chooses, "{text}");
        }
    }

    #[test]
    fn a_preference_that_is_not_a_string_is_none() {
        assert!(
            read(r#"{"io.modelcontextprotocol/acceptLanguage":["fr"]}"#)
                .preference()
                .is_none()
        );
        let escaped = read(r#"{"io.modelcontextprotocol/acceptLanguage":"fr\u002C de"}"#);
        assert_eq!(escaped.preference().as_deref(), Some("fr, de"));
    }
}
