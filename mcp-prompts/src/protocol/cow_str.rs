use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// A JSON string borrowed from the input when it has no escapes.
///
/// serde's own `Cow<str>` always allocates unless a derive marks the field
/// `#[serde(borrow)]`; this works anywhere, including map keys.
pub(crate) struct CowStr<'a>(pub(super) Cow<'a, str>);

impl<'de> Deserialize<'de> for CowStr<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CowStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// For `#[serde(deserialize_with)]` on `Cow<'a, str>` fields.
pub(crate) fn cow_str<'de, D: Deserializer<'de>>(d: D) -> Result<Cow<'de, str>, D::Error> {
    CowStr::deserialize(d).map(|s| s.0)
}

/// The same for `Option<Cow<'a, str>>` fields (with `#[serde(default)]`).
pub(crate) fn optional_cow_str<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Cow<'de, str>>, D::Error> {
    cow_str(d).map(Some)
}
