//! How a request ended, as telemetry classifies it: the conventions tell
//! the caller's mistakes (which are not the server's failures) from the
//! server's own failures. Built from the typed outcome before anything is
//! written, never read back from the text.

use crate::error::Error;

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ended<'a> {
    /// A result.
    Ok,
    /// A result that reports an error: a tool's `isError: true`.
    ToolError,
    /// An error response.
    Error { code: i64, message: &'a str },
    /// No response at all: cancelled, or its client went away.
    Unanswered,
}

impl<'a> Ended<'a> {
    /// An error response carrying `error`, as its client reads it.
    pub(crate) fn failed(error: &'a Error) -> Self {
        Self::Error {
            code: i64::from(error.code()),
            message: error.message(),
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
    pub(crate) fn error_type(&self) -> Option<std::borrow::Cow<'static, str>> {
        use std::borrow::Cow;
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

    #[test]
    fn the_callers_mistakes_are_told_from_the_servers_failures() {
        let unknown = Error::invalid_params("Unknown prompt: x");
        let ended = Ended::failed(&unknown);
        assert_eq!(ended.code(), Some(-32602));
        assert_eq!(ended.message(), Some("Unknown prompt: x"));
        assert_eq!(ended.error_type(), None);
        assert!(!ended.is_failure());
        let internal = Error::internal("boom");
        let ended = Ended::failed(&internal);
        assert_eq!(ended.error_type().as_deref(), Some("-32603"));
        assert!(ended.is_failure());
        assert_eq!(Ended::ToolError.error_type().as_deref(), Some("tool_error"));
        assert!(!Ended::ToolError.is_failure());
        assert_eq!(Ended::Ok.error_type(), None);
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
