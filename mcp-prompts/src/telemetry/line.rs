//! The log lines: one at `info` per request served, one per request
//! refused before it reached a handler (on HTTP: 401, 403, 404, ...), at
//! `debug` one per notification. What a client chose (names, URIs) is
//! cut short and escaped; argument values and tokens are never written.

use std::time::Duration;

use super::asked::Asked;
use super::ended::Ended;
use crate::error::{Error, excerpt};

/// The target of the request spans and lines: `RUST_LOG=mcp_prompts=info`
/// (or `mcp_prompts::request=info`) shows them.
pub(crate) const TARGET: &str = "mcp_prompts::request";

/// What a line says of one request.
pub(super) struct Entry<'a> {
    pub(super) method: &'static str,
    /// The method as sent, when the server knows none of that name.
    pub(super) unknown: Option<&'a str>,
    pub(super) about: Option<&'a Asked>,
    pub(super) hidden: bool,
    pub(super) ended: &'a Ended<'a>,
    pub(super) elapsed: Duration,
    pub(super) subject: Option<&'a str>,
    pub(super) status: Option<u16>,
}

struct Fields {
    method: std::borrow::Cow<'static, str>,
    name: Option<String>,
    uri: Option<String>,
    outcome: &'static str,
    code: Option<i64>,
    reason: Option<String>,
    duration_ms: f64,
    subject: Option<String>,
}

impl Fields {
    fn of(entry: &Entry<'_>) -> Self {
        let (name, uri) = match entry.about {
            Some(Asked::Prompt(name) | Asked::Tool(name)) => (Some(excerpt(name)), None),
            Some(Asked::Resource(uri)) => (None, Some(excerpt(uri))),
            None => (None, None),
        };
        let (outcome, reason) = match entry.ended {
            Ended::Ok => ("ok", None),
            Ended::ToolError => ("tool_error", None),
            Ended::Unanswered => ("unanswered", None),
            Ended::Error { .. } if entry.hidden => {
                ("error", Some("hidden from this caller".to_owned()))
            }
            Ended::Error { code, message } => ("error", Some(reason_of(*code, message))),
        };
        Self {
            method: entry
                .unknown
                .map_or(entry.method.into(), |sent| excerpt(sent).into()),
            name,
            uri,
            outcome,
            code: entry.ended.code(),
            reason,
            duration_ms: milliseconds(entry.elapsed),
            subject: entry.subject.map(excerpt),
        }
    }
}

/// A duration in milliseconds, to the microsecond: enough, and short.
fn milliseconds(elapsed: Duration) -> f64 {
    (elapsed.as_secs_f64() * 1e6).round() / 1e3
}

/// An error message as the client got it, cut to a line's worth.
fn excerpt_message(message: &str) -> String {
    crate::error::brief(message)
}

/// What a line says of an error: its message, but for `-32602` only the
/// first clause (`invalid value for argument ..`), since what follows
/// may quote the value a client sent, and argument values are never
/// logged.
fn reason_of(code: i64, message: &str) -> String {
    let message = match code {
        -32602 => message.split_once(": ").map_or(message, |(first, _)| first),
        _ => message,
    };
    excerpt_message(message)
}

/// The line for a request served.
pub(super) fn request(entry: &Entry<'_>) {
    let f = Fields::of(entry);
    tracing::info!(
        target: TARGET,
        method = &*f.method,
        name = f.name,
        uri = f.uri,
        outcome = f.outcome,
        code = f.code,
        reason = f.reason,
        duration_ms = f.duration_ms,
        subject = f.subject,
        status = entry.status,
        "request"
    );
}

/// The line for a notification from the client.
pub(super) fn notification(entry: &Entry<'_>) {
    let method = entry.unknown.map_or(entry.method.into(), excerpt);
    tracing::debug!(
        target: TARGET,
        method,
        duration_ms = milliseconds(entry.elapsed),
        "notification"
    );
}

/// The line for a message refused before any handler saw it (malformed,
/// over the size limit, or on HTTP turned away: 401, 403, 404, ...): the
/// HTTP `status` where there is one, and why (a token is never written,
/// only what was wrong with it).
pub(crate) fn refused(status: Option<u16>, error: &Error, subject: Option<&str>) {
    refused_because(
        status,
        Some(i64::from(error.code())),
        error.message(),
        subject,
    );
}

/// The line for a message refused with `status` where there is one, the
/// JSON-RPC `code` where there is one, and why.
pub(crate) fn refused_because(
    status: Option<u16>,
    code: Option<i64>,
    reason: &str,
    subject: Option<&str>,
) {
    tracing::info!(
        target: TARGET,
        status,
        code,
        reason = excerpt_message(reason),
        subject = subject.map(excerpt),
        "refused"
    );
}

#[cfg(test)]
mod tests {
    use super::reason_of;

    #[test]
    fn a_bad_params_reason_never_quotes_the_value() {
        let message = "invalid value for argument `max_words`: expected an integer (got `s3cret`)";
        assert_eq!(
            reason_of(-32602, message),
            "invalid value for argument `max_words`"
        );
        assert_eq!(reason_of(-32602, "Unknown prompt: nope"), "Unknown prompt");
        assert_eq!(reason_of(-32603, "internal: boom"), "internal: boom");
    }
}
