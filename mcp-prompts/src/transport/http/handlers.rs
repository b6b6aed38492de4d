//! `POST`, `GET` and `DELETE` on the MCP endpoint.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Extension;
use axum::extract::{Request, State};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde_json::value::RawValue;
use tokio::sync::{mpsc, watch};

use super::body::json_response;
use super::guard::{self, Refusal, SESSION_ID, accepts_event_stream, check_origin, header_version};
use super::probes::shut_down_refusal;
use super::respond::{Endpoint, in_language, request_stream, respond, respond_later};
use super::sessions::HttpSession;
use crate::caller::{Access, Caller, principal};
use crate::context::Kept;
use crate::context::{Backchannel, Sender};
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::era::EraClaim;
use crate::protocol::jsonrpc::{Incoming, failure};
use crate::protocol::method::Method;
use crate::protocol::modern::MetaRead;
use crate::server::Session;
use crate::server::dispatch::Parsed;
use crate::transport::edge::{Reply, reply};

type Shared = State<Arc<Endpoint>>;

pub(crate) async fn post(State(endpoint): Shared, request: Request) -> Response {
    if let Some(refused) = shut_down_refusal(&endpoint) {
        return refused;
    }
    let (parts, body) = request.into_parts();
    let headers = &parts.headers;
    let access = remote_access(parts.extensions.get::<Caller>());
    let wire = super::network::network_of(&parts);
    // Every check that needs only the headers comes before the body is read.
    if let Err(refusal) = check_origin(headers, authority(&parts.uri), &endpoint.options) {
        return refuse(refusal);
    }
    // An unknown revision is answered once the body is read, with the
    // request's id.
    let version = header_version(headers);
    let stateless = version
        .as_ref()
        .is_ok_and(|v| v.is_some_and(ProtocolVersion::is_modern));
    let body = match read_body(&endpoint, body).await {
        Ok(body) => body,
        Err(response) => return *response,
    };
    let Ok(text) = std::str::from_utf8(&body) else {
        return http_error(
            StatusCode::BAD_REQUEST,
            &Error::new(Error::PARSE_ERROR, "the body is not UTF-8"),
        );
    };
    if stateless {
        return super::stateless::post(&endpoint, headers, text, access, wire).await;
    }
    // Parsed once: whether it is an `initialize` decides the session.
    let mut message = Parsed::new(text);
    let version = match version {
        Ok(version) => version,
        Err(Refusal::Version(requested)) => {
            let error = crate::protocol::modern::unsupported_version(&requested);
            return json_response(
                StatusCode::BAD_REQUEST,
                failure(request_id(&message), &error),
            );
        }
        Err(refusal) => return refuse(refusal),
    };
    if claims_stateless(&mut message) {
        let error = Error::new(
            super::HEADER_MISMATCH,
            format!(
                "Header mismatch: the request's `_meta` names revision {} but the MCP-Protocol-Version header does not",
                ProtocolVersion::MODERN
            ),
        );
        return json_response(
            StatusCode::BAD_REQUEST,
            failure(request_id(&message), &error),
        );
    }
    let owner = principal(access.caller().map(|c| &**c));
    let opened = open_session(&endpoint, headers, is_initialize(&message), version, &owner);
    let session = match opened {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let route = request_stream(headers);
    let sender = Sender::new(Some(Backchannel::Text(route.shared())), access, wire)
        .keeping_reservations(true);
    let reply = reply(&session, || message, &sender);
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
    let message = match reply {
        Reply::Now(message) => message,
        Reply::Rejected(message) => return json_response(StatusCode::BAD_REQUEST, message),
        Reply::None => return StatusCode::ACCEPTED.into_response(),
        // Never an `initialize`: no session to announce.
        Reply::Later(future) => {
            return respond_later(headers, future, &route, (reserved, kept)).await;
        }
    };
    // A session is kept, and its id announced, once `initialize` succeeded,
    // which is when the session has a revision.
    let session_id = match session {
        SessionRef::New(entry) if entry.session.protocol_version().is_some() => {
            match keep_session(&endpoint, entry) {
                Ok(id) => Some(id),
                Err(response) => return *response,
            }
        }
        _ => None,
    };
    let mut response = in_language(respond(headers, message, &route, reserved), language);
    if let Some(id) = session_id {
        response.headers_mut().insert(SESSION_ID.clone(), id);
    }
    response
}

/// A `POST`'s body, within the size limit and the time it may take.
async fn read_body(
    endpoint: &Endpoint,
    body: axum::body::Body,
) -> Result<axum::body::Bytes, Box<Response>> {
    let timeout = endpoint.options.body_timeout;
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, endpoint.body_limit())).await {
        Ok(Ok(body)) => Ok(body),
        Ok(Err(_)) => Err(Box::new(http_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &Error::invalid_request(format!(
                "the body exceeds the limit of {} bytes",
                endpoint.body_limit()
            )),
        ))),
        // A body that trickles in would hold its connection for ever.
        Err(_) => Err(Box::new(http_error(
            StatusCode::REQUEST_TIMEOUT,
            &Error::invalid_request(format!(
                "the body did not arrive within {} ms",
                timeout.as_millis()
            )),
        ))),
    }
}

/// Stores a session whose `initialize` succeeded, under a new id; 503 if
/// the store is full of recently used sessions.
fn keep_session(
    endpoint: &Endpoint,
    entry: Arc<HttpSession>,
) -> Result<HeaderValue, Box<Response>> {
    let id = guard::new_session_id().map_err(|err| {
        Box::new(http_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &Error::internal(format!("no randomness for a session id: {err}")),
        ))
    })?;
    match endpoint
        .sessions
        .insert(id.to_str().unwrap_or_default(), entry)
    {
        Ok(()) => Ok(id),
        Err(full) => {
            let seconds = full.retry_after.as_secs() + 1;
            let mut response = http_error(
                StatusCode::SERVICE_UNAVAILABLE,
                &Error::internal(format!(
                    "the server has as many sessions as it keeps ({}), all recently used: \
                     try again in {seconds} s",
                    endpoint.options.max_sessions
                )),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            Err(Box::new(response))
        }
    }
}

pub(crate) async fn get(
    State(endpoint): Shared,
    caller: Option<Extension<Caller>>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if let Some(refused) = shut_down_refusal(&endpoint) {
        return refused;
    }
    if let Err(refusal) = check_origin(&headers, authority(&uri), &endpoint.options) {
        return refuse(refusal);
    }
    let version = match header_version(&headers) {
        Ok(version) => version,
        Err(refusal) => return refuse(refusal),
    };
    // Revision 2026-07-28 has no sessions, hence no session stream.
    if endpoint.options.stateless
        || !endpoint.options.streams
        || version.is_some_and(ProtocolVersion::is_modern)
    {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    if !accepts_event_stream(&headers) {
        return http_error(
            StatusCode::NOT_ACCEPTABLE,
            &Error::invalid_request("a GET must accept text/event-stream"),
        );
    }
    let owner = principal(caller.as_ref().map(|c| &c.0));
    let entry = match existing_session(&endpoint, &headers, &owner) {
        Ok(entry) => entry,
        Err(response) => return *response,
    };
    let Some(rx) = entry.take_stream() else {
        return http_error(
            StatusCode::CONFLICT,
            &Error::invalid_request("this session already has an open event stream"),
        );
    };
    let state = StreamState {
        lease: Lease {
            rx: Some(rx),
            entry: Arc::clone(&entry),
        },
        ended: entry.ended.subscribe(),
        shutdown: endpoint.shutdown.subscribe(),
    };
    let events = stream::unfold(state, |mut state| async move {
        let rx = state.lease.rx.as_mut()?;
        let message = tokio::select! {
            message = rx.recv() => message?,
            _ = state.ended.wait_for(|ended| *ended) => return None,
            _ = state.shutdown.wait_for(|down| *down) => return None,
        };
        let event = Event::default().event("message").data(message);
        Some((Ok::<_, Infallible>(event), state))
    });
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

pub(crate) async fn delete(
    State(endpoint): Shared,
    caller: Option<Extension<Caller>>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if let Some(refused) = shut_down_refusal(&endpoint) {
        return refused;
    }
    if let Err(refusal) = check_origin(&headers, authority(&uri), &endpoint.options) {
        return refuse(refusal);
    }
    let version = match header_version(&headers) {
        Ok(version) => version,
        Err(refusal) => return refuse(refusal),
    };
    if endpoint.options.stateless || version.is_some_and(ProtocolVersion::is_modern) {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let owner = principal(caller.as_ref().map(|c| &c.0));
    if let Err(response) = existing_session(&endpoint, &headers, &owner) {
        return *response;
    }
    let Some(id) = session_id(&headers) else {
        return missing_session();
    };
    if endpoint.sessions.remove(id) {
        StatusCode::OK.into_response()
    } else {
        unknown_session()
    }
}

/// The session a POST is served by: a live one, a new one for
/// `initialize` (kept only if it succeeds), or a throwaway one (stateless).
fn open_session(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    initialize: bool,
    version: Option<ProtocolVersion>,
    owner: &str,
) -> Result<SessionRef, Box<Response>> {
    let service = &endpoint.service;
    if endpoint.options.stateless {
        let session = if initialize {
            service.session(None)
        } else {
            // With no header, the specification says to assume 2025-03-26.
            let version = version.unwrap_or(ProtocolVersion::V2025_03_26);
            Session::new(service.clone(), None, Some(version))
        };
        return Ok(SessionRef::Own(session));
    }
    if initialize && session_id(headers).is_none() {
        return Ok(SessionRef::New(HttpSession::new(service, owner)));
    }
    existing_session(endpoint, headers, owner).map(SessionRef::Existing)
}

/// The session a request's id names, if it belongs to the request's
/// caller (`owner`, its [`principal`]): to anyone else it is as unknown as
/// an expired one, so a session id is never a credential.
fn existing_session(
    endpoint: &Endpoint,
    headers: &HeaderMap,
    owner: &str,
) -> Result<Arc<HttpSession>, Box<Response>> {
    let Some(id) = session_id(headers) else {
        return Err(Box::new(missing_session()));
    };
    endpoint
        .sessions
        .get(id)
        .filter(|entry| entry.owner == owner)
        .ok_or_else(|| Box::new(unknown_session()))
}

/// A request that came over HTTP, with the caller the endpoint's auth (or
/// the app's own middleware) put in its extensions.
pub(super) fn remote_access(caller: Option<&Caller>) -> Access {
    Access::Remote(caller.cloned().map(Arc::new))
}

/// A request's session.
enum SessionRef {
    /// Found by its id.
    Existing(Arc<HttpSession>),
    /// Made for an `initialize`; kept if that succeeds.
    New(Arc<HttpSession>),
    /// Made for one request (stateless mode).
    Own(Session),
}

impl std::ops::Deref for SessionRef {
    type Target = Session;

    fn deref(&self) -> &Session {
        match self {
            Self::Existing(entry) | Self::New(entry) => &entry.session,
            Self::Own(session) => session,
        }
    }
}

/// Holds a session's message stream for a `GET`, and gives it back when
/// the stream ends, so that the client can open another.
struct Lease {
    rx: Option<mpsc::Receiver<String>>,
    entry: Arc<HttpSession>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(rx) = self.rx.take() {
            self.entry.return_stream(rx);
        }
    }
}

struct StreamState {
    lease: Lease,
    ended: watch::Receiver<bool>,
    shutdown: watch::Receiver<bool>,
}

fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers.get(&SESSION_ID).and_then(|v| v.to_str().ok())
}

/// The request's authority, which HTTP/2 sends instead of `Host`.
fn authority(uri: &Uri) -> Option<&str> {
    uri.authority().map(Authority::as_str)
}

fn missing_session() -> Response {
    http_error(
        StatusCode::BAD_REQUEST,
        &Error::invalid_request("missing Mcp-Session-Id header: send `initialize` first"),
    )
}

fn unknown_session() -> Response {
    http_error(
        StatusCode::NOT_FOUND,
        &Error::invalid_request("unknown or expired session: send `initialize` again"),
    )
}

fn refuse(refusal: Refusal) -> Response {
    match refusal {
        Refusal::Host => http_error(
            StatusCode::FORBIDDEN,
            &Error::invalid_request("the Host header names a host this server does not serve"),
        ),
        Refusal::Origin => http_error(
            StatusCode::FORBIDDEN,
            &Error::invalid_request("requests from this Origin are not allowed"),
        ),
        Refusal::Version(version) => http_error(
            StatusCode::BAD_REQUEST,
            &crate::protocol::modern::unsupported_version(&version),
        ),
    }
}

/// An HTTP error whose body is a JSON-RPC error without an id, as the
/// specification allows.
fn http_error(status: StatusCode, error: &Error) -> Response {
    json_response(status, failure(None, error))
}

// What a `POST` asks of its message and session before serving it: the
// server's dispatch needs none of it.
/// The id of a single request, if it has a readable one.
fn request_id<'a>(message: &Parsed<'a>) -> Option<&'a RawValue> {
    match message {
        Parsed::One(Ok(Incoming::Request { id, .. })) => Some(id),
        Parsed::One(Err(rejected)) => rejected.id(),
        _ => None,
    }
}

/// Whether `message` is a request whose `_meta` names the stateless
/// revision (which must come with that revision's headers). A request of
/// the session is marked so, and its `_meta` is not read again to serve
/// it.
fn claims_stateless(message: &mut Parsed<'_>) -> bool {
    let Parsed::One(Ok(Incoming::Request { params, claim, .. })) = message else {
        return false;
    };
    match MetaRead::of(*params) {
        MetaRead::Modern(_) => true,
        MetaRead::Legacy => {
            *claim = Some(EraClaim::Handshake);
            false
        }
        // Read again where it is served, which says what is wrong with it.
        MetaRead::Invalid(_) => false,
    }
}

/// Whether `message` is an `initialize` request (never part of a batch).
fn is_initialize(message: &Parsed<'_>) -> bool {
    matches!(message, Parsed::One(Ok(Incoming::Request { method, .. })) if method == Method::Initialize.name())
}
