//! A prompt's `_meta`: the entries it declares and its tags.

use serde_json::{Map, Value};

use mcp_prompts_template::rules::TAGS_META_KEY;

/// A `_meta` value of `#[prompt(meta(...))]`, as written: a literal
/// ([`PromptExtras::meta`](crate::PromptExtras::meta)). It converts into
/// a `serde_json::Value`.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MetaValue {
    /// A string.
    Text(&'static str),
    /// An integer.
    Integer(i64),
    /// Any other (finite) number.
    Number(f64),
    /// A boolean.
    Bool(bool),
}

impl From<MetaValue> for Value {
    fn from(value: MetaValue) -> Self {
        match value {
            MetaValue::Text(text) => text.into(),
            MetaValue::Integer(n) => n.into(),
            MetaValue::Number(x) => x.into(),
            MetaValue::Bool(b) => b.into(),
        }
    }
}

/// The `_meta` a prompt is listed with: its own entries, then its tags
/// under [`TAGS_META_KEY`]; `None` when it has neither.
pub(crate) fn listed_meta(
    entries: impl IntoIterator<Item = (String, Value)>,
    tags: &[&str],
) -> Option<Map<String, Value>> {
    let mut meta: Map<String, Value> = entries.into_iter().collect();
    if !tags.is_empty() {
        meta.insert(TAGS_META_KEY.to_owned(), tags.into());
    }
    (!meta.is_empty()).then_some(meta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_listed_beside_the_entries() {
        let entries = [("com.example/owner".to_owned(), MetaValue::Text("x").into())];
        let meta = listed_meta(entries, &["git"]).unwrap();
        assert_eq!(
            Value::Object(meta),
            serde_json::json!({ "com.example/owner": "x", "mcp-prompts/tags": ["git"] })
        );
        assert_eq!(listed_meta([], &[]), None);
    }
}
