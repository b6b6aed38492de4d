//! How a request ended, as telemetry classifies it: the conventions tell
//! the caller's mistakes (which are not the server's failures) from the
//! server's own failures.

use std::borrow::Cow;

use serde::Deserialize;

/// How a request ended.
#[derive(Debug, PartialEq)]
pub(crate) enum Seen<'a> {
    /// A result.
    Ok,
    /// A result that reports an error: a tool's `isError: true`.
    ToolError,
    /// An error response.
    Error { code: i64, message: Cow<'a, str> },
    /// No response at all: cancelled, or its client went away.
    Unanswered,
}

impl<'a> Seen<'a> {
    /// Reads how the response `text` to request `id` ended. Our own writer
    /// made it (`jsonrpc::success` and `failure`), so its shape is known:
    /// the `error` member follows the id, and a tool result's `isError`
    /// is its last member.
    pub(crate) fn of_response(text: &'a str, id: &str) -> Self {
        let rest = text
            .strip_prefix("{\"jsonrpc\":\"2.0\",\"id\":")
            .and_then(|rest| rest.strip_prefix(id));
        if let Some(error) = rest.and_then(|rest| rest.strip_prefix(",\"error\":")) {
            return Self::of_error(error);
        }
        if text.ends_with("\"isError\":true}}") {
            return Self::ToolError;
        }
        Self::Ok
    }

    /// Reads a JSON-RPC error object (with whatever follows it).
    pub(crate) fn of_error(text: &'a str) -> Self {
        #[derive(Deserialize)]
        struct ErrorObject<'a> {
            code: i64,
            #[serde(borrow)]
            message: Cow<'a, str>,
        }
        let mut objects = serde_json::Deserializer::from_str(text).into_iter::<ErrorObject<'a>>();
        match objects.next() {
            Some(Ok(error)) => Self::Error {
                code: error.code,
                message: error.message,
            },
            _ => Self::Error {
                code: i64::from(crate::error::Error::INTERNAL_ERROR),
                message: Cow::Borrowed("an unreadable error"),
            },
        }
    }

    /// The JSON-RPC error code, if the response is an error.
    pub(crate) fn code(&self) -> Option<i64> {
        match self {
            Self::Error { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// `error.type`, set only when the operation failed: a server-side
    /// error's code, or `tool_error`. The caller's own mistakes are not
    /// the server's failures (the conventions, as amended in 2026).
    pub(crate) fn error_type(&self) -> Option<Cow<'static, str>> {
        match self {
            Self::Ok | Self::Unanswered => None,
            Self::ToolError => Some(Cow::Borrowed("tool_error")),
            Self::Error { code, .. } if is_callers_mistake(*code) => None,
            Self::Error { code, .. } => Some(Cow::Owned(code.to_string())),
        }
    }

    /// Whether the span's status is ERROR: a failure with an error code.
    /// (A tool's `isError` is the model's to correct: its span keeps an
    /// unset status, with `error.type` saying what happened.)
    pub(crate) fn is_failure(&self) -> bool {
        matches!(self, Self::Error { code, .. } if !is_callers_mistake(*code))
    }

    /// The error's message, if the response is an error.
    pub(crate) fn message(&self) -> Option<&str> {
        match self {
            Self::Error { message, .. } => Some(message),
            _ => None,
        }
    }
}

/// Whether `code` says the caller asked for something that cannot be
/// served: malformed JSON or request, an unknown method, bad params (an
/// unknown prompt among them), an unknown resource.
pub(crate) fn is_callers_mistake(code: i64) -> bool {
    matches!(code, -32700 | -32600 | -32601 | -32602 | -32002)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::protocol::jsonrpc::{failure, success};
    use serde_json::value::RawValue;

    fn id(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    #[test]
    fn reads_what_our_writer_wrote() {
        let id = id("\"a\\\"b\"");
        let ok = success(&id, &serde_json::json!({"error": {"code": 1}}));
        assert_eq!(Seen::of_response(&ok, id.get()), Seen::Ok);
        let error = failure(Some(&id), &Error::invalid_params("Unknown prompt: x"));
        let seen = Seen::of_response(&error, id.get());
        assert_eq!(seen.code(), Some(-32602));
        assert_eq!(seen.message(), Some("Unknown prompt: x"));
        assert_eq!(seen.error_type(), None);
        assert!(!seen.is_failure());
        let internal = failure(Some(&id), &Error::internal("boom"));
        let seen = Seen::of_response(&internal, id.get());
        assert_eq!(seen.error_type().as_deref(), Some("-32603"));
        assert!(seen.is_failure());
        let tool = success(&id, &serde_json::json!({"content": [], "isError": true}));
        let seen = Seen::of_response(&tool, id.get());
        assert_eq!(seen, Seen::ToolError);
        assert_eq!(seen.error_type().as_deref(), Some("tool_error"));
        assert!(!seen.is_failure());
    }

    #[test]
    fn only_the_callers_mistakes_are_not_failures() {
        for code in [-32700, -32600, -32601, -32602, -32002] {
            assert!(is_callers_mistake(code));
        }
        for code in [-32603, -32000, -32042, 1] {
            assert!(!is_callers_mistake(code));
        }
    }
}
