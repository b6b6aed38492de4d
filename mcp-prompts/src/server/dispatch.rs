use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::info::DiscoverResult;
use super::panics::guarded;
use super::{Era, Outcome, Session};
use std::sync::Arc;

use crate::caller::{Access, Caller};
use crate::context::{ClientAnswer, InFlight, Route, Sender};
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::{Answer, Empty};
use crate::protocol::era::Decided;
use crate::protocol::jsonrpc::{self, Incoming, failure};
use crate::protocol::method::{
    CompletionComplete, Initialize, LoggingSetLevel, Method, Notification, Ping, PromptsGet,
    PromptsList, Request, ResourcesDirectoryRead, ResourcesList, ResourcesRead, ServerDiscover,
    SkillsGet, SkillsList, SubscriptionsListen, ToolsCall, ToolsList,
};
#[cfg(feature = "http")]
use crate::protocol::modern::ModernMeta;
use crate::protocol::modern::{CLIENT_CAPABILITIES, PROTOCOL_VERSION};
use crate::telemetry::{self, Watch, Wire};

/// A response still being produced; `None` when there turns out to be
/// nothing to send.
pub type ResponseFuture = Pin<Box<dyn Future<Output = Option<String>> + Send>>;

/// Polls a response still being produced once, where a runtime is there
/// for it: an async prompt or completer that never actually waits is
/// answered here, with no task, no tracking and no hand-off to another
/// thread. One that waits is given back, to be polled by its task, which
/// registers the waker that counts.
fn poll_once(mut future: ResponseFuture) -> Result<Option<String>, ResponseFuture> {
    if tokio::runtime::Handle::try_current().is_err() {
        return Err(future);
    }
    let mut cx = Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut cx) {
        Poll::Ready(message) => Ok(message),
        Poll::Pending => Err(future),
    }
}

/// What to send back for one incoming message.
#[non_exhaustive]
pub enum Reply {
    /// Nothing: the message was a notification or a response.
    None,
    /// A response ready now.
    Now(String),
    /// A response still being produced (an async prompt that waits).
    Later(ResponseFuture),
    /// An error response naming no request: the message could not be read
    /// as one (malformed JSON, an invalid envelope, a batch refused whole,
    /// a message over the size limit whose id could not be recovered), or
    /// reading it failed (a panic, answered -32603). HTTP answers it with
    /// status 400.
    Rejected(String),
}

impl Reply {
    /// The error response to a message that names no request.
    pub(crate) fn rejected(error: &Error) -> Self {
        Self::Rejected(failure(None, error))
    }

    /// Waits for the response, whichever kind it is.
    pub async fn into_message(self) -> Option<String> {
        match self {
            Self::None => None,
            Self::Now(message) | Self::Rejected(message) => Some(message),
            Self::Later(future) => future.await,
        }
    }
}

/// One incoming message, parsed once: a transport may look at it (is it an
/// `initialize`?) before it is served, without parsing it again.
pub(crate) enum Parsed<'a> {
    One(Result<Incoming<'a>, jsonrpc::Rejected<'a>>),
    /// Items are read when the batch is served, under the session's rules.
    Batch(&'a str),
}

impl<'a> Parsed<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        match text.trim_start().as_bytes().first() {
            Some(b'[') => Self::Batch(text),
            _ => Self::One(jsonrpc::classify(text)),
        }
    }
}

impl Session {
    /// Handles one incoming message (a JSON object, or a batch where the
    /// negotiated revision allows one) from the local user, who owns the
    /// process (as over stdio): every prompt is shown, whatever its
    /// scopes. A transport that carries remote clients uses
    /// [`handle_remote`](Self::handle_remote).
    pub fn handle(&self, text: &str) -> Reply {
        self.handle_routed(text, None)
    }

    /// Like [`handle`](Self::handle), but notifications the requests send
    /// (log messages) go to `route` instead of the session's own stream,
    /// for a transport that puts them on the response of the request they
    /// belong to.
    ///
    /// A panic while reading or dispatching the message (a bug, never
    /// expected) is answered with -32603 instead of ending the connection.
    pub fn handle_routed(&self, text: &str, route: Option<&mpsc::Sender<String>>) -> Reply {
        self.handle_from(text, route, Access::Local)
    }

    /// Handles one message from a remote client, which `caller` says who
    /// it is (`None`: nobody proved it): prompts restricted to some
    /// callers (`#[prompt(scopes = ..)]`, `visible`) are shown only to
    /// those, and are unknown to everyone else. Notifications go to
    /// `route`, as with [`handle_routed`](Self::handle_routed).
    pub fn handle_remote(
        &self,
        text: &str,
        route: Option<&mpsc::Sender<String>>,
        caller: Option<Caller>,
    ) -> Reply {
        self.handle_from(text, route, Access::Remote(caller.map(Arc::new)))
    }

    /// Handles one message served under `access`.
    pub(crate) fn handle_from(
        &self,
        text: &str,
        route: Option<&mpsc::Sender<String>>,
        access: Access,
    ) -> Reply {
        let sender = match (route, access) {
            (None, Access::Local) => &Sender::LOCAL,
            (route, access) => {
                let wire = match access {
                    Access::Local => Wire::Pipe,
                    Access::Remote(_) => Wire::Unknown,
                };
                &Sender::new(route.map(|route| Route::Text(route.clone())), access, wire)
            }
        };
        self.handle_sent(text, sender)
    }

    /// Handles one message from `sender`, a transport's own (which keeps
    /// the reservations of its answers, say).
    pub(crate) fn handle_sent(&self, text: &str, sender: &Sender) -> Reply {
        guarded(|| self.serve(Parsed::new(text), sender))
    }

    /// Serves a message a transport has parsed already.
    pub(crate) fn serve(&self, message: Parsed<'_>, sender: &Sender) -> Reply {
        guarded(|| match message {
            Parsed::One(incoming) => self.handle_one(incoming, sender),
            Parsed::Batch(text) => self.handle_batch(text, sender),
        })
    }

    /// The answer to a message over the size limit, which the transport
    /// discarded but for its first and last bytes: -32600, with the id if
    /// those bytes hold it.
    pub(crate) fn reject_oversized(&self, head: &[u8], tail: &[u8]) -> Reply {
        let limit = self.service.max_message_bytes();
        guarded(|| {
            let error =
                Error::invalid_request(format!("the message exceeds the limit of {limit} bytes"));
            telemetry::refused(None, &error, None);
            match jsonrpc::recover_id(head, tail) {
                Some(id) => Reply::Now(failure(Some(&id), &error)),
                None => Reply::rejected(&error),
            }
        })
    }

    pub(super) fn handle_one(
        &self,
        incoming: Result<Incoming<'_>, jsonrpc::Rejected<'_>>,
        sender: &Sender,
    ) -> Reply {
        match incoming {
            Ok(Incoming::Request { id, method, params }) => {
                let watch = self.watch_request(id, &method, params, sender);
                // One call of the request path, inlined here: watched or
                // not, it runs in the span (entered only when there is one).
                let entered = watch.enter();
                let reply = self.settle(id, self.request(id, &method, params, sender));
                drop(entered);
                self.observed(watch, id, reply, sender)
            }
            Ok(Incoming::Notification { method, params }) => {
                let watch = Watch::notification(&method, params, sender.wire());
                watch
                    .span()
                    .in_scope(|| match Notification::from_name(&method) {
                        Some(Notification::Cancelled) => self.cancelled(params),
                        // Requests are served as soon as `initialize` is
                        // answered; other notifications are ignored.
                        Some(Notification::Initialized) | None => {}
                    });
                let version = self.state.version();
                watch.end(None, "", version, None);
                Reply::None
            }
            // The client's answer to a request a prompt sent it.
            Ok(Incoming::Response { id, outcome }) => {
                self.state
                    .outbound
                    .resolve(id.get(), read_client_answer(outcome));
                Reply::None
            }
            Err(rejected) => {
                // On HTTP, a message refused whole is answered (and its
                // line written) with status 400 by the transport.
                let http = sender.wire().http().is_some();
                if !http || rejected.id().is_some() {
                    let status = http.then_some(200);
                    telemetry::refused(status, rejected.error(), None);
                }
                match rejected.id() {
                    Some(id) => Reply::Now(failure(Some(id), rejected.error())),
                    None => Reply::rejected(rejected.error()),
                }
            }
        }
    }

    /// Serves a stateless (2026-07-28) request whose `_meta` the transport
    /// has read already, checking it against its headers.
    #[cfg(feature = "http")]
    pub(crate) fn serve_stateless(
        &self,
        id: &RawValue,
        method: &str,
        params: Option<&RawValue>,
        meta: ModernMeta,
        sender: &Sender,
    ) -> Reply {
        let era = Era::Stateless(meta);
        let watch = self.watch_request(id, method, params, sender);
        let reply = watch.span().in_scope(|| {
            guarded(|| self.settle(id, self.dispatch(id, era, method, params, sender)))
        });
        self.observed(watch, id, reply, sender)
    }

    /// A reply still being produced is polled once, in case it is ready
    /// already; one that waits can be cancelled while it does. It is in
    /// flight from before that first poll, so that its context can watch
    /// for cancellation from the start.
    fn settle(&self, id: &RawValue, reply: Reply) -> Reply {
        let Reply::Later(future) = reply else {
            return reply;
        };
        let in_flight = self.state.outbound.track(id.get());
        match poll_once(future) {
            Ok(message) => message.map_or(Reply::None, Reply::Now),
            Err(future) => Reply::Later(cancellable(future, in_flight)),
        }
    }

    /// Serves a request in the era it is decided to be in: a 2026-07-28
    /// one statelessly, any other under its session's revision (or, before
    /// `initialize`, only as far as the handshake allows).
    // Inlined into its one caller, as the panic guard is: called out of
    // line, it costs each request some fifty instructions (callgrind).
    #[inline]
    fn request(
        &self,
        id: &RawValue,
        name: &str,
        params: Option<&RawValue>,
        sender: &Sender,
    ) -> Reply {
        let era = match Era::decide(params) {
            Ok(Decided::Stateless(meta)) => Era::Stateless(meta),
            // `server/discover` exists only in 2026-07-28: without its
            // `_meta`, it is a malformed request of that revision.
            Ok(Decided::Session) if name == ServerDiscover::NAME => {
                return Self::refuse(id, &discover_without_meta());
            }
            Ok(Decided::Session) => match self.state.version() {
                Some(version) => Era::Session(version),
                None => return self.before_initialize(id, name, params, sender),
            },
            Err(error) => return Self::refuse(id, &error),
        };
        self.dispatch(id, era, name, params, sender)
    }

    /// The one dispatch: from the method's name, through its row of the
    /// table (is it in this era's revisions, is its capability declared),
    /// to its handler; the handler's typed outcome is written once, in
    /// the request's era.
    fn dispatch(
        &self,
        id: &RawValue,
        era: Era,
        name: &str,
        params: Option<&RawValue>,
        sender: &Sender,
    ) -> Reply {
        let method = Method::from_name(name);
        let in_era = method.filter(|m| match era {
            Era::Session(_) => m.in_sessions(),
            Era::Stateless(_) => m.in_stateless(),
        });
        let method = match self.service.serves(name, in_era) {
            Ok(method) => method,
            Err(error) => return Self::refuse(id, &error),
        };
        let access = sender.access();
        match method {
            Method::Initialize => {
                let error = Error::invalid_request("the session is already initialized");
                Self::refuse(id, &error)
            }
            Method::Ping => self.now(id, era, &Ping::params(params).map(|_| Empty)),
            Method::PromptsList => {
                let listed = PromptsList::params(params).and_then(|p| {
                    let cursor = p.cursor();
                    self.service.snapshot().page(era.version(), cursor, access)
                });
                self.now_held(id, era, &listed, sender)
            }
            Method::PromptsGet => match PromptsGet::params(params) {
                Ok(p) => self.reply(id, era, self.get_prompt(id, era, p, sender), sender),
                Err(error) => Self::refuse(id, &error),
            },
            Method::CompletionComplete => match CompletionComplete::params(params) {
                Ok(p) => self.reply(id, era, self.complete(&p, access), sender),
                Err(error) => Self::refuse(id, &error),
            },
            Method::LoggingSetLevel => {
                let set = LoggingSetLevel::params(params).and_then(|p| self.set_log_level(&p));
                self.now(id, era, &set)
            }
            Method::ServerDiscover => {
                let info = &self.service.0.info;
                self.now(id, era, &Ok(DiscoverResult { info }))
            }
            Method::SubscriptionsListen => match SubscriptionsListen::params(params) {
                Ok(p) => self.reply_if(id, era, self.listen(id, &p, sender.route())),
                Err(error) => Self::refuse(id, &error),
            },
            Method::ToolsList => {
                let listed = ToolsList::params(params).and_then(|p| super::tools::list(&p));
                self.now_held(id, era, &listed, sender)
            }
            Method::ToolsCall => match ToolsCall::params(params) {
                Ok(p) => self.reply(id, era, self.call_tool(id, era, p, sender), sender),
                Err(error) => Self::refuse(id, &error),
            },
            Method::ResourcesList => {
                let skills = self.service.skills();
                let view = skills.view(access);
                let listed = ResourcesList::params(params).and_then(|p| view.resources(p.cursor()));
                self.now_unsent(id, era, &listed, sender)
            }
            Method::ResourcesRead => {
                let skills = self.service.skills();
                let view = skills.view(access);
                let read =
                    ResourcesRead::params(params).and_then(|p| view.read(p.uri(), era.version()));
                self.now_unsent(id, era, &read, sender)
            }
            Method::ResourcesDirectoryRead => {
                let skills = self.service.skills();
                let view = skills.view(access);
                let listed = ResourcesDirectoryRead::params(params)
                    .and_then(|p| view.read_directory(p.uri(), p.cursor()));
                self.now_unsent(id, era, &listed, sender)
            }
            Method::SkillsList => {
                let skills = self.service.skills();
                let view = skills.view(access);
                let listed = SkillsList::params(params).and_then(|p| view.list(p.cursor()));
                self.now_unsent(id, era, &listed, sender)
            }
            Method::SkillsGet => {
                let skills = self.service.skills();
                let view = skills.view(access);
                let got = SkillsGet::params(params).and_then(|p| view.get(p.uri()));
                self.now_unsent(id, era, &got, sender)
            }
        }
    }

    /// The reply to request `id`, whose outcome is ready.
    fn now<A: Answer>(&self, id: &RawValue, era: Era, outcome: &Outcome<A>) -> Reply {
        Reply::Now(self.service.write(id, era, outcome))
    }

    /// Like [`now`](Self::now), for an answer that may be large (a
    /// listing): held within the unsent budget ([`Service::write_held`]).
    fn now_held<A: Answer>(
        &self,
        id: &RawValue,
        era: Era,
        outcome: &Outcome<A>,
        sender: &Sender,
    ) -> Reply {
        Reply::Now(self.service.write_held(id, era, outcome, sender.kept()))
    }

    /// Like [`now`](Self::now), for an answer of the skills and their
    /// files, which may be large: written only if the server's budget for
    /// answers not yet read has room for it, which `sender`'s transport
    /// holds until it has written it.
    fn now_unsent<A: Answer>(
        &self,
        id: &RawValue,
        era: Era,
        outcome: &Outcome<A>,
        sender: &Sender,
    ) -> Reply {
        Reply::Now(self.service.write_unsent(id, era, outcome, sender))
    }

    /// Stops the request a `notifications/cancelled` names; one that is
    /// malformed, unknown or finished is ignored, as the specification says.
    fn cancelled(&self, params: Option<&RawValue>) {
        #[derive(serde::Deserialize)]
        struct Cancelled<'a> {
            #[serde(rename = "requestId", borrow)]
            request_id: &'a RawValue,
        }
        let text = params.map_or("{}", RawValue::get);
        if let Ok(cancelled) = serde_json::from_str::<Cancelled<'_>>(text) {
            self.state.outbound.cancel(cancelled.request_id.get());
        }
    }

    /// Before `initialize`, only `initialize` and `ping` are served; every
    /// other request still gets an answer, so a client probing with a method
    /// from a newer revision can fall back at once.
    fn before_initialize(
        &self,
        id: &RawValue,
        name: &str,
        params: Option<&RawValue>,
        sender: &Sender,
    ) -> Reply {
        let era = Era::Session(ProtocolVersion::LATEST);
        match Method::from_name(name).filter(|m| m.in_sessions()) {
            None => Self::refuse(id, &Error::method_not_found(name)),
            Some(method) if !method.before_initialize() => Self::refuse(
                id,
                &Error::invalid_request("the session is not initialized: send `initialize` first"),
            ),
            Some(Method::Initialize) => {
                match Initialize::params(params).and_then(|p| self.initialize(&p)) {
                    Ok(result) => {
                        #[cfg(feature = "otel")]
                        self.state.clock.open(result.version, sender.wire());
                        #[cfg(not(feature = "otel"))]
                        let _ = sender;
                        self.now(id, Era::Session(result.version), &Ok(result))
                    }
                    Err(error) => Self::refuse(id, &error),
                }
            }
            // `ping`, the other one served before `initialize`.
            Some(_) => self.now(id, era, &Ping::params(params).map(|_| Empty)),
        }
    }
}

/// A client's response to a question of ours: its `result` as a value,
/// or its error's message.
fn read_client_answer(outcome: Result<&RawValue, &RawValue>) -> ClientAnswer {
    #[derive(serde::Deserialize)]
    struct ErrorObject {
        message: Option<String>,
    }
    match outcome {
        Ok(result) => serde_json::from_str(result.get())
            .map_err(|err| format!("an unreadable result ({err})")),
        Err(error) => Err(serde_json::from_str::<ErrorObject>(error.get())
            .ok()
            .and_then(|error| error.message)
            .unwrap_or_else(|| "no message".to_owned())),
    }
}

/// A request still being worked on, which ends with no response if the
/// client cancels it: its work is dropped where it stands. It stays in
/// flight for as long as the future lives, polled or not.
fn cancellable(mut future: ResponseFuture, in_flight: InFlight) -> ResponseFuture {
    Box::pin(async move {
        let mut cancelled = std::pin::pin!(in_flight.cancel().fired());
        std::future::poll_fn(|cx| {
            if cancelled.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
            future.as_mut().poll(cx)
        })
        .await
    })
}

/// -32602 for `server/discover` sent as a session request: it exists only
/// in 2026-07-28, whose requests name their revision in `_meta`.
fn discover_without_meta() -> Error {
    Error::invalid_params(format!(
        "server/discover is a 2026-07-28 request: its `_meta` must carry `{PROTOCOL_VERSION}` and `{CLIENT_CAPABILITIES}`"
    ))
}
