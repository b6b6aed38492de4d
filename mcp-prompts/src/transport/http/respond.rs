//! What both `POST` handlers (a session's, and the stateless one) share:
//! the endpoint's state, and a request's answer, as JSON or as an event
//! stream when the request sends messages before it.

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::header::{CONTENT_LANGUAGE, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::{mpsc, watch};

use super::body::{holding, json_response, unsent_response};
use super::guard::accepts_event_stream;
use super::options::HttpOptions;
use super::request_route::{RequestRoute, closing};
use super::sessions::SessionStore;
use crate::context::{Kept, Reservation};
use crate::protocol::language::Language;
use crate::server::Service;
use crate::transport::edge::ResponseFuture;

/// What every request of one endpoint shares.
pub(crate) struct Endpoint {
    pub(super) service: Service,
    pub(super) options: HttpOptions,
    pub(super) sessions: SessionStore,
    /// Set at shutdown: open event streams end, so shutdown can finish.
    pub(super) shutdown: watch::Sender<bool>,
    /// Set when a shutdown begins: `/readyz` answers 503 while requests
    /// are still served.
    draining: AtomicBool,
}

impl Endpoint {
    pub(crate) fn new(service: Service, options: HttpOptions) -> Self {
        Self {
            sessions: SessionStore::new(
                options.max_sessions,
                options.idle_timeout,
                options.eviction_grace,
            ),
            service,
            options,
            shutdown: watch::Sender::new(false),
            draining: AtomicBool::new(false),
        }
    }

    /// A shutdown begins: the endpoint says it is not ready, and serves on.
    pub(crate) fn drain(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }

    /// Whether it is ready for more requests: not draining, not shut down.
    pub(crate) fn is_ready(&self) -> bool {
        !self.draining.load(Ordering::Relaxed) && !self.is_shut_down()
    }

    /// Whether it has shut down: new requests are answered 503.
    pub(crate) fn is_shut_down(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// The largest body accepted.
    pub(crate) fn body_limit(&self) -> usize {
        self.options
            .max_body_bytes
            .unwrap_or(self.service.max_message_bytes())
    }

    pub(crate) fn shut_down(&self) {
        self.drain();
        self.shutdown.send_replace(true);
        self.sessions.end_all();
    }
}

/// The route a request's own messages travel on to its response stream.
/// Closed from the start when the client takes no stream: then log
/// messages go to the session's stream, and a question to the client fails
/// at once rather than wait for an answer that cannot come.
pub(super) fn request_stream(headers: &HeaderMap) -> RequestRoute {
    if accepts_event_stream(headers) {
        RequestRoute::new()
    } else {
        RequestRoute::closed()
    }
}

/// The response to a request: as JSON, or, when the request sent
/// notifications (log messages) and the client takes a stream, those and
/// then the response as one event stream. `reserved`, the response's
/// bytes reserved from the unsent budget, goes with its body.
pub(super) fn respond(
    headers: &HeaderMap,
    message: String,
    route: &RequestRoute,
    reserved: Option<Reservation>,
) -> Response {
    respond_after(headers, route.close_taking_sent(), message, reserved)
}

/// The response to a request that sent `held` before it.
fn respond_after(
    headers: &HeaderMap,
    held: Vec<String>,
    message: String,
    reserved: Option<Reservation>,
) -> Response {
    if held.is_empty() || !accepts_event_stream(headers) {
        return match reserved {
            Some(reserved) => unsent_response(message, reserved),
            None => json_response(StatusCode::OK, message),
        };
    }
    let events = held
        .into_iter()
        .chain([message])
        .map(|data| Ok::<_, Infallible>(Event::default().event("message").data(data)));
    holding(
        Sse::new(stream::iter(events)).into_response(),
        reserved,
        None,
    )
}

/// The response to a request still being worked on, with what holds its
/// answer's bytes: reserved now, or left in `kept` once it is made. If it
/// sends a message before it is done (a log message, or a request to the client
/// such as `elicitation/create`, which must reach the client before the
/// request can finish) and the client takes a stream, the response is a
/// stream from then on: those messages as they come, then the response.
/// Otherwise it is answered as [`respond`] does, once done.
pub(super) async fn respond_later(
    headers: &HeaderMap,
    mut future: ResponseFuture,
    route: &RequestRoute,
    (reserved, kept): (Option<Reservation>, Option<Kept>),
) -> Response {
    // Made now if the request sent nothing yet: the response waits on it.
    let mut notes = route.receiver();
    let first = if accepts_event_stream(headers) {
        tokio::select! {
            message = &mut future => Err(message),
            Some(note) = notes.recv() => Ok(note),
        }
    } else {
        Err((&mut future).await)
    };
    let first = match first {
        Ok(note) => note,
        Err(Some(message)) => {
            // A large answer made on its way took its bytes since: held
            // together with any reserved before (a batch's).
            let reserved = match &kept {
                Some(kept) => {
                    if let Some(reserved) = reserved {
                        kept.keep(reserved);
                    }
                    kept.take()
                }
                None => reserved,
            };
            let language = kept.as_ref().and_then(Kept::language);
            let response = respond_after(headers, closing(&mut notes), message, reserved);
            return in_language(response, language);
        }
        Err(None) => return StatusCode::ACCEPTED.into_response(),
    };
    let events = stream::unfold(
        Streaming::Running(Some(first), future, notes),
        |state| async move {
            let (message, next) = match state {
                Streaming::Running(Some(note), future, notes) => {
                    (note, Streaming::Running(None, future, notes))
                }
                Streaming::Running(None, mut future, mut notes) => tokio::select! {
                    biased;
                    Some(note) = notes.recv() => (note, Streaming::Running(None, future, notes)),
                    message = &mut future => {
                        // What the request sent last, then its response.
                        let mut rest = Vec::new();
                        while let Ok(note) = notes.try_recv() {
                            rest.push(note);
                        }
                        rest.extend(message);
                        rest.reverse();
                        let first = rest.pop()?;
                        (first, Streaming::Done(rest))
                    }
                },
                Streaming::Done(mut rest) => (rest.pop()?, Streaming::Done(rest)),
            };
            let event = Event::default().event("message").data(message);
            Some((Ok::<_, Infallible>(event), next))
        },
    );
    holding(Sse::new(events).into_response(), reserved, kept)
}

/// Where a streamed response stands.
enum Streaming {
    /// A message to send first, the work, and its messages.
    Running(Option<String>, ResponseFuture, mpsc::Receiver<String>),
    /// What is left to send, in reverse order.
    Done(Vec<String>),
}

/// `response` naming the language its answer is in (`Content-Language`),
/// and that it differs by the language asked for (`Vary`), where the
/// request asked for one.
pub(super) fn in_language(mut response: Response, language: Option<Language>) -> Response {
    let Some(value) = language.and_then(|l| HeaderValue::from_str(l.as_str()).ok()) else {
        return response;
    };
    let headers = response.headers_mut();
    headers.insert(CONTENT_LANGUAGE, value);
    headers.append(VARY, HeaderValue::from_static("accept-language"));
    response
}
