//! Classifying one incoming JSON-RPC message and writing responses.
//!
//! Incoming messages are read borrowed from the line buffer: only the pieces
//! a handler keeps are copied. Responses are written straight into a `String`
//! around already-serialized results, so static data is never re-serialized.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use super::era::EraClaim;
use crate::error::Error;

/// One message that was a JSON object.
pub(crate) enum Incoming<'a> {
    Request {
        id: &'a RawValue,
        method: Cow<'a, str>,
        params: Option<&'a RawValue>,
        /// What its `_meta` claims, where its route read it already (an
        /// HTTP `POST`, whose headers must agree with it); `None`: the
        /// server reads it, deciding the era.
        claim: Option<EraClaim>,
    },
    /// Never answered.
    Notification {
        method: Cow<'a, str>,
        params: Option<&'a RawValue>,
    },
    /// A client's response to a request the server sent it.
    Response {
        id: &'a RawValue,
        /// The `result`, or the `error` object.
        outcome: Result<&'a RawValue, &'a RawValue>,
    },
}

/// Why a message could not be served, with the id if it was readable.
pub(crate) struct Rejected<'a> {
    id: Option<&'a RawValue>,
    error: Error,
}

impl<'a> Rejected<'a> {
    /// The message's id, if it was readable.
    pub(crate) fn id(&self) -> Option<&'a RawValue> {
        self.id
    }

    /// Why it was rejected.
    pub(crate) fn error(&self) -> &Error {
        &self.error
    }

    /// Why it was rejected, taken.
    pub(crate) fn into_error(self) -> Error {
        self.error
    }
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

/// Keeps an explicit `null` as `Some("null")`, so `"id": null` is told apart
/// from a missing id (a notification).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// Classifies one message. Only a JSON object can be a request: serde
/// would read a struct from an array too, so that is refused first.
pub(crate) fn classify(text: &str) -> Result<Incoming<'_>, Rejected<'_>> {
    if !text.trim_start().starts_with('{') {
        return Err(Rejected {
            id: None,
            error: parse_failure(text),
        });
    }
    let envelope: Envelope<'_> = serde_json::from_str(text).map_err(|_| Rejected {
        id: None,
        error: parse_failure(text),
    })?;
    let id = match envelope.id {
        Some(id) if is_valid_id(id) => Some(id),
        Some(_) => {
            return Err(Rejected {
                id: None,
                error: Error::invalid_request("`id` must be a string or an integer"),
            });
        }
        None => None,
    };
    let reject = |message: &'static str| Rejected {
        id,
        error: Error::invalid_request(message),
    };
    if envelope.jsonrpc.map(RawValue::get) != Some("\"2.0\"") {
        return Err(reject("`jsonrpc` must be \"2.0\""));
    }
    let Some(method) = envelope.method else {
        let outcome = match (envelope.result, envelope.error) {
            (Some(result), None) => Ok(result),
            (None, Some(error)) => Err(error),
            _ => return Err(reject("`method` is missing")),
        };
        return match id {
            Some(id) => Ok(Incoming::Response { id, outcome }),
            None => Err(reject("`method` is missing")),
        };
    };
    let Ok(method) = super::cow_str(method) else {
        return Err(reject("`method` must be a string"));
    };
    let params = match envelope.params {
        Some(p) if p.get() == "null" => None,
        Some(p) if p.get().starts_with(['{', '[']) => Some(p),
        Some(_) => return Err(reject("`params` must be an object or an array")),
        None => None,
    };
    Ok(match id {
        Some(id) => Incoming::Request {
            id,
            method,
            params,
            claim: None,
        },
        None => Incoming::Notification { method, params },
    })
}

/// -32700 for text that is not JSON, -32600 for JSON that is not a request.
pub(crate) fn parse_failure(text: &str) -> Error {
    if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        Error::invalid_request("the message is not a JSON-RPC request object")
    } else {
        Error::new(
            Error::PARSE_ERROR,
            "parse error: the message is not valid JSON",
        )
    }
}

fn is_valid_id(id: &RawValue) -> bool {
    let text = id.get();
    text.starts_with('"') || (!text.is_empty() && text.parse::<i64>().is_ok())
}

/// A success response serializing `result` in place.
pub(crate) fn success<T: Serialize + ?Sized>(id: &RawValue, result: &T) -> String {
    // Written here rather than through `success_within`: the request
    // path's every answer, which the generic writer would cost a little.
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.get().as_bytes());
    out.extend_from_slice(b",\"result\":");
    match serde_json::to_writer(&mut out, result) {
        Ok(()) => {
            out.push(b'}');
            // serde_json writes UTF-8 only.
            String::from_utf8(out).unwrap_or_default()
        }
        Err(err) => failure(
            Some(id),
            &Error::internal(format!("failed to serialize the result: {err}")),
        ),
    }
}

/// Like [`success`], for a result made of `head`'s members (a JSON object
/// with some), then `body`'s (a JSON object): each serialized as it is,
/// the brace between them made a comma. Cheaper than serde's `flatten`,
/// which sends every member of the body through a map.
pub(crate) fn success_after<H: Serialize + ?Sized, T: Serialize + ?Sized>(
    id: &RawValue,
    head: &H,
    body: &T,
) -> String {
    let mut out = Vec::with_capacity(192);
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.get().as_bytes());
    out.extend_from_slice(b",\"result\":");
    let head_start = out.len();
    let joined = serde_json::to_writer(&mut out, head).and_then(|()| {
        let is_object = out.get(head_start) == Some(&b'{') && out.last() == Some(&b'}');
        // The head's closing brace goes: the body's members follow.
        out.pop();
        let start = out.len();
        let written = serde_json::to_writer(&mut out, body);
        written.map(|()| (is_object && out.get(start) == Some(&b'{')).then_some(start))
    });
    let start = match joined {
        Ok(Some(start)) => start,
        Ok(None) => return failure(Some(id), &Error::internal("a result is a JSON object")),
        Err(err) => {
            let why = format!("failed to serialize the result: {err}");
            return failure(Some(id), &Error::internal(why));
        }
    };
    let head_is_empty = start == head_start + 1;
    let body_is_empty = out[start + 1..].trim_ascii_start().first() == Some(&b'}');
    if head_is_empty {
        // No member before the body's: its brace opens the result.
        out.remove(start);
    } else if body_is_empty {
        // No member after the head's, no comma: the head closes.
        out.truncate(start);
        out.push(b'}');
    } else {
        out[start] = b',';
    }
    out.push(b'}');
    // serde_json writes UTF-8 only.
    String::from_utf8(out).unwrap_or_default()
}

/// Like [`success`], written into `capacity` bytes allocated up front: a
/// response measured first is allocated once, at its size, never grown.
pub(crate) fn success_within<T: Serialize + ?Sized>(
    id: &RawValue,
    result: &T,
    capacity: usize,
) -> String {
    let mut out = Vec::with_capacity(capacity);
    match write_success(&mut out, id, result) {
        // serde_json writes UTF-8 only.
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(err) => failure(
            Some(id),
            &Error::internal(format!("failed to serialize the result: {err}")),
        ),
    }
}

/// How many bytes [`success`] writes for `result`, counted as they are
/// written and never kept; `None` if it cannot be serialized (its
/// response is then a short error).
pub(crate) fn success_len<T: Serialize + ?Sized>(id: &RawValue, result: &T) -> Option<usize> {
    /// Counts what is written to it.
    struct Counted(usize);

    impl std::io::Write for Counted {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    let mut counted = Counted(0);
    write_success(&mut counted, id, result).ok()?;
    Some(counted.0)
}

/// The success response to `id` around `result`, written to `out`.
fn write_success<W: std::io::Write, T: Serialize + ?Sized>(
    out: &mut W,
    id: &RawValue,
    result: &T,
) -> serde_json::Result<()> {
    let head = |out: &mut W| {
        out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":")?;
        out.write_all(id.get().as_bytes())?;
        out.write_all(b",\"result\":")
    };
    head(out).map_err(serde_json::Error::io)?;
    serde_json::to_writer(&mut *out, result)?;
    out.write_all(b"}").map_err(serde_json::Error::io)
}

/// An error response; the id is omitted when it could not be read.
pub(crate) fn failure(id: Option<&RawValue>, error: &Error) -> String {
    // Whatever a handler did not build on purpose is never sent as it is.
    if error.is_hidden() {
        let request = id.map_or("(no id)", RawValue::get);
        return failure(id, &error.clone().redacted("request", request));
    }
    let mut out = String::with_capacity(96);
    out.push_str("{\"jsonrpc\":\"2.0\",");
    if let Some(id) = id {
        let _ = write!(out, "\"id\":{},", id.get());
    }
    out.push_str("\"error\":");
    // Error holds only strings, numbers and JSON values: serializing cannot fail.
    out.push_str(&serde_json::to_string(error).unwrap_or_default());
    out.push('}');
    out
}

/// Recovers the id of a message too large to parse, from its first and last
/// bytes, so that the client still gets an answer it can match.
///
/// Sound for valid JSON: a leading `{"id":` or `{"jsonrpc":"2.0","id":` is the
/// top-level id, and so is a trailing `"id":<value>}` whose `}` is the final
/// byte (an id nested deeper would be followed by two closing braces).
/// Works on bytes, since either edge may cut a character in two, and
/// accepts nothing but a valid id: any other bytes give `None`.
pub(crate) fn recover_id(head: &[u8], tail: &[u8]) -> Option<Box<RawValue>> {
    leading_id(head).or_else(|| trailing_id(tail))
}

fn leading_id(head: &[u8]) -> Option<Box<RawValue>> {
    let rest = head
        .trim_ascii_start()
        .strip_prefix(b"{")?
        .trim_ascii_start();
    let rest = match rest.strip_prefix(b"\"jsonrpc\"") {
        Some(after) => after
            .trim_ascii_start()
            .strip_prefix(b":")?
            .trim_ascii_start()
            .strip_prefix(b"\"2.0\"")?
            .trim_ascii_start()
            .strip_prefix(b",")?
            .trim_ascii_start(),
        None => rest,
    };
    let value = rest
        .strip_prefix(b"\"id\"")?
        .trim_ascii_start()
        .strip_prefix(b":")?
        .trim_ascii_start();
    let end = if value.first() == Some(&b'"') {
        string_end(value)?
    } else {
        value.iter().position(|&b| !is_number_byte(b))?
    };
    to_id(&value[..end])
}

fn trailing_id(tail: &[u8]) -> Option<Box<RawValue>> {
    let body = tail.trim_ascii_end().strip_suffix(b"}")?.trim_ascii_end();
    let start = if let Some(inner) = body.strip_suffix(b"\"") {
        // Back to the opening quote of a string without escaped quotes.
        inner.iter().rposition(|&b| b == b'"')?
    } else {
        body.iter().rposition(|&b| !is_number_byte(b))? + 1
    };
    let before = body[..start].trim_ascii_end().strip_suffix(b":")?;
    if !before.trim_ascii_end().ends_with(b"\"id\"") {
        return None;
    }
    to_id(&body[start..])
}

fn is_number_byte(b: u8) -> bool {
    b.is_ascii_digit() || b == b'-'
}

/// Length of the JSON string at the start of `text`, quotes included.
/// Quotes and backslashes are ASCII, so bytes suffice even in UTF-8.
fn string_end(text: &[u8]) -> Option<usize> {
    let mut escaped = false;
    for (i, &b) in text.iter().enumerate().skip(1) {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'"' => return Some(i + 1),
            _ => {}
        }
    }
    None
}

fn to_id(bytes: &[u8]) -> Option<Box<RawValue>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let raw = RawValue::from_string(text.to_owned()).ok()?;
    is_valid_id(&raw).then_some(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> &'static str {
        match classify(text) {
            Ok(Incoming::Request { .. }) => "request",
            Ok(Incoming::Notification { .. }) => "notification",
            Ok(Incoming::Response { .. }) => "response",
            Err(r) if r.error.code() == Error::PARSE_ERROR => "parse",
            Err(_) => "invalid",
        }
    }

    #[test]
    fn classifies_messages() {
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#),
            "request"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#),
            "request"
        );
        assert_eq!(kind(r#"{"jsonrpc":"2.0","method":"x"}"#), "notification");
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#), "response");
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            "invalid"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            "invalid"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#),
            "invalid"
        );
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":1,"method":7}"#), "invalid");
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"method":"a","params":3}"#),
            "invalid"
        );
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":1"#), "parse");
    }

    #[test]
    fn a_head_goes_ahead_of_the_members() {
        let id = RawValue::from_string("7".into()).unwrap();
        let head = serde_json::json!({"_meta": {"k": "}"}});
        let body = serde_json::json!({"a": {"b": {}}, "c": "{"});
        assert_eq!(
            success_after(&id, &head, &body),
            r#"{"jsonrpc":"2.0","id":7,"result":{"_meta":{"k":"}"},"a":{"b":{}},"c":"{"}}"#
        );
        assert_eq!(
            success_after(&id, &head, &serde_json::Map::new()),
            r#"{"jsonrpc":"2.0","id":7,"result":{"_meta":{"k":"}"}}}"#
        );
        let refused = success_after(&id, &head, &[1]);
        assert!(refused.contains("-32603"), "{refused}");
        let refused = success_after(&id, "head", &body);
        assert!(refused.contains("-32603"), "{refused}");
        assert_eq!(
            success_after(&id, &serde_json::Map::new(), &body),
            r#"{"jsonrpc":"2.0","id":7,"result":{"a":{"b":{}},"c":"{"}}"#
        );
        let spaced = RawValue::from_string("{ }".into()).unwrap();
        assert_eq!(
            success_after(&id, &head, &spaced),
            r#"{"jsonrpc":"2.0","id":7,"result":{"_meta":{"k":"}"}}}"#
        );
    }

    #[test]
    fn writes_responses() {
        let id = RawValue::from_string("7".into()).unwrap();
        assert_eq!(
            success(&id, &serde_json::Map::new()),
            r#"{"jsonrpc":"2.0","id":7,"result":{}}"#
        );
        assert_eq!(
            failure(None, &Error::invalid_request("bad")),
            r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"bad"}}"#
        );
    }

    #[test]
    fn recovers_ids_of_oversized_messages() {
        let get = |head: &str, tail: &str| {
            recover_id(head.as_bytes(), tail.as_bytes()).map(|r| r.get().to_owned())
        };
        assert_eq!(
            get(r#"{"jsonrpc":"2.0","id":42,"method":"#, "x\"}}"),
            Some("42".into())
        );
        assert_eq!(get(r#"{"id":"abc","#, "}"), Some("\"abc\"".into()));
        assert_eq!(
            get(
                r#"{"method":"prompts/get","#,
                r#"aaa"},"jsonrpc":"2.0","id":5}"#
            ),
            Some("5".into())
        );
        assert_eq!(get(r#"{"method":"x","#, r#""id":5}}"#), None);
        assert_eq!(get(r#"{"method":"x","#, r#""aaaa"}"#), None);
        assert_eq!(get("{\"x\":\"", "a\",\"id\":\"é\"}"), Some("\"é\"".into()));
    }

    /// Either edge of an oversized line can end anywhere, even inside a
    /// character: every short tail and head, valid UTF-8 or not, must give
    /// an answer or `None`, never a panic.
    #[test]
    fn id_recovery_never_panics() {
        let pieces: [&[u8]; 12] = [
            b"}",
            b"\"",
            b"1",
            b"-",
            b":",
            b"\"id\"",
            b" ",
            b"\\",
            "é".as_bytes(),
            &[0xC3],
            &[0xE2, 0x82],
            &[0xFF],
        ];
        let mut tails = vec![Vec::new()];
        for _ in 0..4 {
            let longer: Vec<Vec<u8>> = tails
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| [t.as_slice(), p].concat()))
                .collect();
            tails.extend(longer);
            tails.dedup();
        }
        for bytes in &tails {
            let with_id = [b"\"id\":".as_slice(), bytes, b"}"].concat();
            let _ = recover_id(bytes, bytes);
            let _ = recover_id(&with_id, &with_id);
            let _ = recover_id(b"{\"id\":", bytes);
        }
    }
}
