//! What `get_prompt` returns: the prompt's messages as tool content (one
//! block per message, its first line naming the role, since tool content
//! has none), an error as an `isError` result the model can read and
//! correct, or, in 2026-07-28, the questions a prompt asks.

use std::fmt::Write as _;

use super::result::{ToolContent, ToolResult};
use crate::content::ContentKind;
use crate::error::Error;
use crate::message::PromptResult;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::Answer;
use crate::protocol::language::Language;
use crate::protocol::modern::ResultType;
use crate::server::get::result::InputRequiredBody;
use crate::server::get::{GetOutcome, InputRequired};
use serde::Serialize;

/// A `get_prompt` call as it ended, before a route writes it.
pub(crate) enum ToolOutcome {
    /// A `CallToolResult`: the messages, or the prompts listed; and the
    /// language they are in, where the request asked for one.
    Complete(ToolResult, Option<Language>),
    /// A `CallToolResult` that reports an error (`isError`), for the
    /// model to read and correct.
    Failed(ToolResult),
    /// 2026-07-28: the prompt asks the user first.
    InputRequired(InputRequired),
}

impl Answer for ToolOutcome {
    fn result_type(&self) -> ResultType {
        match self {
            Self::Complete(..) | Self::Failed(_) => ResultType::Complete,
            Self::InputRequired(_) => ResultType::InputRequired,
        }
    }

    fn reports_error(&self) -> bool {
        matches!(self, Self::Failed(_))
    }

    fn content_language(&self) -> Option<&Language> {
        match self {
            Self::Complete(_, language) => language.as_ref(),
            Self::Failed(_) => None,
            Self::InputRequired(asked) => asked.language(),
        }
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        match self {
            Self::Complete(result, _) | Self::Failed(result) => ToolBody::Complete(result),
            Self::InputRequired(asked) => ToolBody::Asked(asked.body()),
        }
    }
}

/// A `tools/call` result's fields: the tool's result, or the questions.
#[derive(Serialize)]
#[serde(untagged)]
enum ToolBody<'a> {
    Complete(&'a ToolResult),
    Asked(InputRequiredBody<'a>),
}

impl ToolOutcome {
    /// The tool's outcome of a `prompts/get` run.
    pub(crate) fn of(result: Result<GetOutcome, Error>, version: ProtocolVersion) -> Self {
        match result {
            Ok(GetOutcome::Prompt {
                result, language, ..
            }) => Self::Complete(messages(&result, version), language),
            Ok(GetOutcome::InputRequired(asked)) => Self::InputRequired(asked),
            Err(error) => Self::Failed(error_result(&error)),
        }
    }
}

/// An `isError` result with the error's message: argument problems read
/// exactly as `prompts/get`'s -32602 does; an error whose detail stays on
/// the server is logged, and the result gives its id.
pub(crate) fn error_result(error: &Error) -> ToolResult {
    let redacted;
    let error = if error.is_hidden() {
        redacted = error.clone().redacted("get_prompt", "tools/call");
        &redacted
    } else {
        error
    };
    let mut text = error.message().to_owned();
    if let Some(id) = error.data().and_then(|d| d.get("errorId")) {
        let _ = write!(text, " (error id {id})");
    }
    ToolResult::failed(text)
}

/// Each message as a text block `role:\n<text>`; a message of another
/// content type as a text block naming its role, then the block itself.
fn messages(result: &PromptResult, version: ProtocolVersion) -> ToolResult {
    let mut content = Vec::with_capacity(result.messages.len());
    for message in &result.messages {
        let role = match message.role() {
            crate::content::Role::User => "user",
            crate::content::Role::Assistant => "assistant",
        };
        let block = message.content();
        if let ContentKind::Text(text) = block.kind() {
            content.push(ToolContent::Text(format!("{role}:\n{text}")));
        } else {
            content.push(ToolContent::Text(format!("{role}:")));
            content.push(ToolContent::Block(block.clone(), version));
        }
    }
    ToolResult::of(content)
}
