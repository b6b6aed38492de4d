use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::{CowStr, cow_str};

/// The `arguments` of a `prompts/get` request: names to string values.
///
/// Borrowed from the request text where possible. JSON numbers and booleans
/// are accepted as their text (some clients send them where the
/// specification says string); `null` counts as absent. A name given twice
/// is an error: which value was meant is ambiguous.
#[derive(Debug, Default)]
pub struct Arguments<'a> {
    entries: Vec<(Cow<'a, str>, Cow<'a, str>)>,
}

impl<'a> Arguments<'a> {
    /// The value of an argument, if the client sent it.
    pub fn get(&self, name: &str) -> Option<&str> {
        // The last occurrence wins, as in a JSON object read into a map.
        self.entries
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_ref())
    }

    /// Adds an argument (used by tests and in-process clients).
    pub fn insert(&mut self, name: impl Into<Cow<'a, str>>, value: impl Into<Cow<'a, str>>) {
        self.entries.push((name.into(), value.into()));
    }

    /// The same arguments, owning their text.
    pub(crate) fn into_owned(self) -> Arguments<'static> {
        Arguments {
            entries: self
                .entries
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k.into_owned()), Cow::Owned(v.into_owned())))
                .collect(),
        }
    }

    /// The number of arguments sent.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no argument was sent.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every argument sent, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(k, v)| (k.as_ref(), v.as_ref()))
    }
}

/// Why an argument's value is refused.
/// Why argument `name` is refused: its value is not a string (nor a
/// number or boolean, read as their text).
pub(crate) fn not_a_string(name: &str) -> String {
    format!(
        "argument `{}` must be a string",
        crate::error::excerpt(name)
    )
}

impl<'de: 'a, 'a> Deserialize<'de> for Arguments<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_option(ArgumentsVisitor)
    }
}

struct ArgumentsVisitor;

impl<'de> Visitor<'de> for ArgumentsVisitor {
    type Value = Arguments<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of argument names to string values")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Arguments::default())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Arguments::default())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(4));
        // Names sent as `null`: absent, but still names given once.
        let mut nulls = Vec::new();
        while let Some(CowStr(key)) = map.next_key::<CowStr<'de>>()? {
            let raw: &'de RawValue = map.next_value()?;
            let text = raw.get();
            let value = match text.as_bytes().first() {
                Some(b'"') => cow_str(raw).map_err(de::Error::custom)?,
                Some(b'n') => {
                    if entries.len() + nulls.len() < FEW && seen(&entries, &nulls, &key) {
                        return Err(given_twice(&key));
                    }
                    nulls.push(key);
                    continue;
                }
                Some(b't' | b'f' | b'-' | b'0'..=b'9') => Cow::Borrowed(text),
                _ => return Err(de::Error::custom(not_a_string(&key))),
            };
            // The few names of a usual request are checked as they come.
            if entries.len() + nulls.len() < FEW && seen(&entries, &nulls, &key) {
                return Err(given_twice(&key));
            }
            entries.push((key, value));
        }
        if entries.len() + nulls.len() >= FEW {
            if let Some(twice) = repeated(&entries, &nulls) {
                return Err(given_twice(twice));
            }
        }
        Ok(Arguments { entries })
    }
}

/// Up to this many names, each is checked against those before it as it
/// comes; past it, all are sorted once at the end, so that many names
/// cannot cost the square of their number.
const FEW: usize = 16;

type Entry<'a> = (Cow<'a, str>, Cow<'a, str>);

fn seen(entries: &[Entry<'_>], nulls: &[Cow<'_, str>], name: &str) -> bool {
    entries.iter().any(|(key, _)| key == name) || nulls.iter().any(|key| key == name)
}

/// A name that occurs more than once, if any.
fn repeated<'n>(entries: &'n [Entry<'_>], nulls: &'n [Cow<'_, str>]) -> Option<&'n str> {
    let mut names: Vec<&str> = entries.iter().map(|(key, _)| key.as_ref()).collect();
    names.extend(nulls.iter().map(AsRef::as_ref));
    names.sort_unstable();
    names
        .windows(2)
        .find(|pair| pair[0] == pair[1])
        .map(|pair| pair[0])
}

fn given_twice<E: de::Error>(name: &str) -> E {
    E::custom(format!(
        "argument `{}` is given more than once",
        crate::error::excerpt(name)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_strings_numbers_and_booleans() {
        let args: Arguments<'_> =
            serde_json::from_str(r#"{"a":"x","b":5,"c":true,"d":null,"e":"","f":"q\""}"#).unwrap();
        assert_eq!(args.get("a"), Some("x"));
        assert_eq!(args.get("b"), Some("5"));
        assert_eq!(args.get("c"), Some("true"));
        assert_eq!(args.get("d"), None);
        assert_eq!(args.get("e"), Some(""));
        assert_eq!(args.get("f"), Some("q\""));
    }

    #[test]
    fn rejects_a_name_given_twice() {
        use std::fmt::Write as _;

        for text in [
            r#"{"service":"api","service":"prod-db"}"#,
            r#"{"a":"1","b":"2","a":null}"#,
            r#"{"a":null,"a":null}"#,
        ] {
            let err = serde_json::from_str::<Arguments<'_>>(text).unwrap_err();
            assert!(err.to_string().contains("is given more than once"), "{err}");
        }
        let mut text = String::from("{");
        for n in 0..10_000 {
            let _ = write!(text, "\"k{n}\":\"v\",");
        }
        text.push_str("\"k0\":\"again\"}");
        assert!(serde_json::from_str::<Arguments<'_>>(&text).is_err());
        assert!(serde_json::from_str::<Arguments<'_>>(r#"{"a":"1","b":null}"#).is_ok());
    }

    #[test]
    fn rejects_objects() {
        let err = serde_json::from_str::<Arguments<'_>>(r#"{"a":{"x":1}}"#).unwrap_err();
        assert!(
            err.to_string().contains("argument `a` must be a string"),
            "{err}"
        );
    }
}
