//! The 2026-07-28 flavour of Streamable HTTP: no sessions. Each `POST`
//! names its revision, method and (for `prompts/get` and `tools/call`)
//! prompt or tool in headers, which must agree with the body; disagreement
//! is 400 with -32020, a malformed `_meta` 400 with -32602, an unknown
//! method 404 with -32601.

use std::borrow::Cow;

use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde_json::value::RawValue;

use super::HEADER_MISMATCH;
use super::body::json_response;
use super::header_facts::HeaderFacts;
use super::respond::{Endpoint, in_language, request_stream, respond, respond_later};
use crate::caller::Access;
use crate::context::Kept;
use crate::context::{Backchannel, Sender};
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::era::{Era, EraClaim};
use crate::protocol::jsonrpc::{Incoming, failure};
use crate::protocol::language::Preference;
use crate::protocol::method::Method;
use crate::server::dispatch::Parsed;
use crate::telemetry::Network;
use crate::transport::edge::{Reply, reply};

/// Serves a `POST` whose `MCP-Protocol-Version` is a stateless revision.
pub(super) async fn post(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    text: &str,
    access: Access,
    wire: Network,
) -> Response {
    let (id, method, params) = match Parsed::new(text) {
        Parsed::Batch(_) => {
            let error = Error::invalid_request("revision 2026-07-28 has no batches");
            return json_response(StatusCode::BAD_REQUEST, failure(None, &error));
        }
        Parsed::One(Err(rejected)) => {
            let message = failure(rejected.id(), rejected.error());
            return json_response(StatusCode::BAD_REQUEST, message);
        }
        // Nothing to answer: a stateless request is cancelled by closing
        // its stream, and the server sends no requests to respond to.
        Parsed::One(Ok(Incoming::Notification { .. } | Incoming::Response { .. })) => {
            return StatusCode::ACCEPTED.into_response();
        }
        Parsed::One(Ok(Incoming::Request {
            id, method, params, ..
        })) => (id, method, params),
    };
    let refuse =
        |status: StatusCode, error: Error| json_response(status, failure(Some(id), &error));
    if let Err(error) = matches_header(headers, "mcp-method", "Mcp-Method", &method) {
        return refuse(StatusCode::BAD_REQUEST, error);
    }
    let facts = HeaderFacts::read(params.map_or("{}", RawValue::get));
    let modern = ProtocolVersion::MODERN.as_str();
    // The body must name the header's revision before anything about it
    // is judged: a disagreement is a mismatch, not an unknown revision.
    if let Some(requested) = facts.requested().filter(|&r| r != modern) {
        let error = mismatch(&format!(
            "the MCP-Protocol-Version header says {modern} but `_meta` says `{}`",
            crate::error::excerpt(requested)
        ));
        return refuse(StatusCode::BAD_REQUEST, error);
    }
    let meta = match facts.claim() {
        Ok(EraClaim::Stateless(meta)) => meta,
        Err(error) => return refuse(StatusCode::BAD_REQUEST, error),
        Ok(EraClaim::Handshake) => {
            let error = Error::invalid_params(format!(
                "the request's `_meta` lacks `{}`, which every request of revision {modern} carries",
                crate::protocol::modern::PROTOCOL_VERSION
            ));
            return refuse(StatusCode::BAD_REQUEST, error);
        }
    };
    // `prompts/get` and `tools/call` name what they get in `Mcp-Name`,
    // `resources/read` its URI.
    let named = if method == Method::PromptsGet.name() || method == Method::ToolsCall.name() {
        Some(facts.name())
    } else if method == Method::ResourcesRead.name() {
        Some(facts.uri())
    } else {
        None
    };
    if let Some(named) = named {
        let named = named.unwrap_or_default();
        if let Err(error) = matches_header(headers, "mcp-name", "Mcp-Name", named) {
            return refuse(StatusCode::BAD_REQUEST, error);
        }
    }
    if let Err(error) = language_agrees(headers, facts.preference()) {
        return refuse(StatusCode::BAD_REQUEST, error);
    }
    // A method 2026-07-28 lacks, or one behind a capability this server
    // does not declare: not found.
    if let Err(error) = endpoint.service.serves_in(Era::Stateless(meta), &method) {
        return refuse(StatusCode::NOT_FOUND, error);
    }
    serve(endpoint, headers, id, &method, params, meta, (access, wire)).await
}

async fn serve(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    id: &RawValue,
    method: &str,
    params: Option<&RawValue>,
    meta: crate::protocol::modern::ModernMeta,
    (access, wire): (Access, Network),
) -> Response {
    // A session of its own, for this request only: nothing it does
    // outlives the response.
    let session = endpoint.service.session(None);
    let route = request_stream(headers);
    let sender = Sender::new(Some(Backchannel::Text(route.shared())), access, wire)
        .keeping_reservations(true);
    // Its era decided here, where its headers were checked against it.
    let request = Incoming::Request {
        id,
        method: Cow::Borrowed(method),
        params,
        claim: Some(EraClaim::Stateless(meta)),
    };
    let reply = reply(&session, || Parsed::One(Ok(request)), &sender);
    // Its answer's bytes, if reserved: held with the response's body.
    let reserved = sender.take_reserved();
    // An answer made later leaves its reservation where the sender keeps
    // them, which the response then holds.
    let kept = matches!(reply, Reply::Later(_))
        .then(|| sender.kept().cloned())
        .flatten();
    let language = sender.kept().and_then(Kept::language);
    drop(sender);
    // The route closes when `route` goes, with this handler, unless a
    // streamed answer took its receiver (and closes it by ending).
    match reply {
        Reply::Now(message) => in_language(respond(headers, message, &route, reserved), language),
        Reply::Rejected(message) => json_response(StatusCode::BAD_REQUEST, message),
        Reply::None => StatusCode::ACCEPTED.into_response(),
        Reply::Later(future) => {
            // At shutdown the connection ends: a `subscriptions/listen`
            // stream gets its closing result rather than hold shutdown up.
            let mut shutdown = endpoint.shutdown.subscribe();
            let future = Box::pin(async move {
                let mut future = future;
                let ended = tokio::select! {
                    message = &mut future => Some(message),
                    _ = shutdown.wait_for(|down| *down) => None,
                };
                match ended {
                    Some(message) => message,
                    None => {
                        session.end();
                        future.await
                    }
                }
            });
            respond_later(headers, future, &route, (reserved, kept)).await
        }
    }
}

/// Checks that header `name` is present and says `expected`.
fn matches_header(
    headers: &HeaderMap,
    name: &str,
    shown: &str,
    expected: &str,
) -> Result<(), Error> {
    let Some(value) = headers.get(name) else {
        return Err(mismatch(&format!("missing {shown} header")));
    };
    let Some(text) = value.to_str().ok().and_then(decode_header) else {
        return Err(mismatch(&format!("malformed {shown} header")));
    };
    if text == expected {
        Ok(())
    } else {
        Err(mismatch(&format!(
            "the {shown} header says `{}` but the body says `{}`",
            crate::error::excerpt(&text),
            crate::error::excerpt(expected)
        )))
    }
}

/// Whether the `Accept-Language` header agrees with the `_meta`
/// preference: without the `_meta` one the header is ignored (a bare
/// header says nothing, SEP-2792), and so is one of `*` (fetch and
/// browsers add it by themselves) or one that does not parse; two that
/// differ once parsed are a header mismatch.
fn language_agrees(headers: &HeaderMap, preference: Option<&str>) -> Result<(), Error> {
    // Without a `_meta` preference there is nothing to disagree with:
    // the header, which browsers send on every request, is not read.
    let Some(meta) = preference.and_then(Preference::parse) else {
        return Ok(());
    };
    // Lines of one header are one list (RFC 9110 §5.3).
    let mut lines = headers.get_all(ACCEPT_LANGUAGE).iter().peekable();
    if lines.peek().is_none() {
        return Ok(());
    }
    let mut header = String::new();
    for line in lines {
        let Ok(text) = line.to_str() else {
            return Ok(());
        };
        if !header.is_empty() {
            header.push_str(", ");
        }
        header.push_str(text);
    }
    let Some(said) = Preference::parse(&header) else {
        return Ok(());
    };
    if Some(&said) == Preference::parse("*").as_ref() {
        return Ok(());
    }
    if meta == said {
        return Ok(());
    }
    Err(mismatch(&format!(
        "the Accept-Language header says `{}` but `_meta` prefers otherwise",
        crate::error::excerpt(&header)
    )))
}

fn mismatch(message: &str) -> Error {
    Error::new(HEADER_MISMATCH, format!("Header mismatch: {message}"))
}

/// A header value as sent, or decoded from `=?base64?...?=`, the form
/// clients use for text that is not plain ASCII.
fn decode_header(value: &str) -> Option<String> {
    let Some(encoded) = value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    else {
        return Some(value.to_owned());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::decode_header;

    #[test]
    fn decodes_base64_header_values() {
        assert_eq!(decode_header("greet").as_deref(), Some("greet"));
        assert_eq!(
            decode_header("=?base64?Z3LDvMOf?=").as_deref(),
            Some("grüß")
        );
        assert_eq!(decode_header("=?base64?***?="), None);
    }
}
