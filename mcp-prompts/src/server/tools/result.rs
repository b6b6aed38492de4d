//! A prompt tool's `CallToolResult`, typed: its content blocks, the
//! prompts `list_prompts` gives as structured content, and whether it
//! reports an error for the model to read and correct (`isError`).

use serde::Serialize;
use serde::ser::Serializer;

use super::listing::ListedPrompts;
use crate::content::Content;
use crate::protocol::ProtocolVersion;

/// A `CallToolResult` of `list_prompts` or `get_prompt`.
#[derive(Serialize)]
pub(crate) struct ToolResult {
    content: Vec<ToolContent>,
    #[serde(rename = "structuredContent", skip_serializing_if = "Option::is_none")]
    structured: Option<ListedPrompts>,
    /// `Some(true)` for a result that reports an error; absent otherwise.
    #[serde(rename = "isError", skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
}

impl ToolResult {
    /// A result of `content`.
    pub(super) fn of(content: Vec<ToolContent>) -> Self {
        Self {
            content,
            structured: None,
            is_error: None,
        }
    }

    /// A result that reports an error, in `text`.
    pub(super) fn failed(text: String) -> Self {
        Self {
            content: vec![ToolContent::Text(text)],
            structured: None,
            is_error: Some(true),
        }
    }

    /// The same result, with `structured` as its structured content.
    pub(super) fn structured(self, structured: ListedPrompts) -> Self {
        Self {
            structured: Some(structured),
            ..self
        }
    }
}

/// One content block of a tool result.
pub(crate) enum ToolContent {
    /// A text block.
    Text(String),
    /// A prompt's content block of another type, as `version` shows it.
    Block(Content, ProtocolVersion),
}

impl Serialize for ToolContent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Text<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            text: &'a str,
        }
        match self {
            Self::Text(text) => Text { kind: "text", text }.serialize(s),
            Self::Block(content, version) => content.for_version(*version).serialize(s),
        }
    }
}
