//! The one dispatch: a message in, its typed [`Response`] out. A request
//! is served in the era `protocol` decides for it, through its row of the
//! method table (is it in that era's revisions, is its capability
//! declared) to its [`Handler`](super::handler::Handler), which
//! [`Handling::serve`] calls with its params read once. Nothing here
//! writes JSON: the transport's edge does, once.

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::batch::serve_batch;
use super::handler::Handling;
use super::methods;
use super::observe::{observe_request, observed};
use super::outcome::Response;
use super::panics::{guarded, guarded_then};
use super::{Era, Session};
use crate::context::{ClientReply, Sender};
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::era::EraClaim;
use crate::protocol::jsonrpc::{self, Incoming};
use crate::protocol::method::{
    CompletionComplete, LoggingSetLevel, Method, Notification, Ping, PromptsGet, PromptsList,
    ResourcesDirectoryRead, ResourcesList, ResourcesRead, SkillsGet, SkillsList,
    SubscriptionsListen, ToolsCall, ToolsList,
};
use crate::telemetry::{self, Delivered, Ended, Observation};

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
    /// Serves one message (a JSON object, or a batch where the negotiated
    /// revision allows one) from `sender`. A panic while reading or
    /// dispatching it (a bug, never expected) is answered with -32603
    /// instead of ending the connection.
    pub(crate) fn serve_text<'a>(&'a self, text: &'a str, sender: &'a Sender) -> Response<'a> {
        self.serve(|| Parsed::new(text), sender)
    }

    /// Serves the message `read` gives (a transport may have parsed it
    /// already), read under the same panic guard as it is served: an
    /// answer moves out of each guard it is made under.
    pub(crate) fn serve<'a>(
        &'a self,
        read: impl FnOnce() -> Parsed<'a>,
        sender: &'a Sender,
    ) -> Response<'a> {
        self.serve_then(read, sender, |response| response)
    }

    /// Like [`serve`](Self::serve), handing the response to `edge` (the
    /// transport's writer) under the same panic guard: what leaves it is
    /// what `edge` makes of the response, written.
    #[inline]
    pub(crate) fn serve_then<'a, R>(
        &'a self,
        read: impl FnOnce() -> Parsed<'a>,
        sender: &'a Sender,
        edge: impl Fn(Response<'a>) -> R,
    ) -> R {
        let dispatch = || match read() {
            Parsed::One(incoming) => self.handle_one(incoming, sender),
            Parsed::Batch(text) => serve_batch(self, text, sender),
        };
        guarded_then(dispatch, edge)
    }

    /// The answer to a message over the size limit, which the transport
    /// discarded but for its first and last bytes: -32600, with the id if
    /// those bytes hold it.
    pub(crate) fn reject_oversized(&self, head: &[u8], tail: &[u8]) -> Response<'static> {
        let limit = self.service.max_message_bytes();
        guarded(|| {
            let error =
                Error::invalid_request(format!("the message exceeds the limit of {limit} bytes"));
            telemetry::refused(None, &error, None);
            match jsonrpc::recover_id(head, tail) {
                Some(id) => {
                    Response::Now(super::outcome::Outcome::failed(Cow::Owned(id), None, error))
                }
                None => Response::rejected(error),
            }
        })
    }

    pub(super) fn handle_one<'a>(
        &'a self,
        incoming: Result<Incoming<'a>, jsonrpc::Rejected<'a>>,
        sender: &'a Sender,
    ) -> Response<'a> {
        match incoming {
            Ok(Incoming::Request {
                id,
                method,
                params,
                claim,
            }) => {
                let watch = observe_request(self, id, &method, params, sender);
                // Watched or not, it runs in the span (entered only when
                // there is one).
                let entered = watch.enter();
                let response = match claim {
                    Some(EraClaim::Stateless(meta)) => {
                        self.dispatch(id, Era::Stateless(meta), &method, params, sender)
                    }
                    claim => self.request(id, &method, (params, claim), sender),
                };
                drop(entered);
                observed(self, watch, response)
            }
            Ok(Incoming::Notification { method, params }) => {
                let watch = Observation::notification(&method, params, sender.network());
                watch
                    .span()
                    .in_scope(|| match Notification::from_name(&method) {
                        Some(Notification::Cancelled) => self.cancelled(params),
                        // Requests are served as soon as `initialize` is
                        // answered; other notifications are ignored.
                        Some(Notification::Initialized) | None => {}
                    });
                let version = self.state.version();
                watch.end(&Ended::Unanswered, version, Delivered::Nothing);
                Response::None
            }
            // The client's answer to a request a prompt sent it.
            Ok(Incoming::Response { id, outcome }) => {
                self.state
                    .outbound
                    .resolve(id.get(), read_client_answer(outcome));
                Response::None
            }
            Err(rejected) => {
                // On HTTP, a message refused whole is answered (and its
                // line written) with status 400 by the transport.
                let http = sender.network().http().is_some();
                if !http || rejected.id().is_some() {
                    let status = http.then_some(200);
                    telemetry::refused(status, rejected.error(), None);
                }
                match rejected.id() {
                    Some(id) => Response::refused(id, None, rejected.into_error()),
                    None => Response::rejected(rejected.into_error()),
                }
            }
        }
    }

    /// Serves a request in the era `protocol` decides it is in: a
    /// 2026-07-28 one statelessly, any other under its session's revision
    /// (or, before `initialize`, only as far as the handshake allows).
    // Inlined into its one caller, as the panic guard is: called out of
    // line, it costs each request some fifty instructions (callgrind).
    #[inline]
    fn request<'a>(
        &'a self,
        id: &'a RawValue,
        name: &str,
        (params, claim): (Option<&'a RawValue>, Option<EraClaim>),
        sender: &'a Sender,
    ) -> Response<'a> {
        match Era::of_request(name, (params, claim), self.state.version()) {
            Ok(Some(era)) => self.dispatch(id, era, name, params, sender),
            Ok(None) => self.before_initialize(id, name, params, sender),
            Err(error) => Response::refused(id, None, error),
        }
    }

    /// From the method's name, through its row of the table, to its
    /// handler.
    fn dispatch<'a>(
        &'a self,
        id: &'a RawValue,
        era: Era,
        name: &str,
        params: Option<&'a RawValue>,
        sender: &'a Sender,
    ) -> Response<'a> {
        let method = match self.service.serves_in(era, name) {
            Ok(method) => method,
            Err(error) => return Response::refused(id, Some(era), error),
        };
        let cx = Handling::new(self, id, era, sender);
        match method {
            Method::Initialize => {
                cx.refuse(Error::invalid_request("the session is already initialized"))
            }
            Method::Ping => cx.serve::<Ping>(params),
            Method::PromptsList => cx.serve::<PromptsList>(params),
            Method::PromptsGet => cx.serve::<PromptsGet>(params),
            Method::CompletionComplete => cx.serve::<CompletionComplete>(params),
            Method::LoggingSetLevel => cx.serve::<LoggingSetLevel>(params),
            Method::ServerDiscover => methods::discover(cx),
            Method::SubscriptionsListen => cx.serve::<SubscriptionsListen>(params),
            Method::ToolsList => cx.serve::<ToolsList>(params),
            Method::ToolsCall => cx.serve::<ToolsCall>(params),
            Method::ResourcesList => cx.serve::<ResourcesList>(params),
            Method::ResourcesRead => cx.serve::<ResourcesRead>(params),
            Method::ResourcesDirectoryRead => cx.serve::<ResourcesDirectoryRead>(params),
            Method::SkillsList => cx.serve::<SkillsList>(params),
            Method::SkillsGet => cx.serve::<SkillsGet>(params),
        }
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
    fn before_initialize<'a>(
        &'a self,
        id: &'a RawValue,
        name: &str,
        params: Option<&'a RawValue>,
        sender: &'a Sender,
    ) -> Response<'a> {
        let cx = Handling::new(self, id, Era::Handshake(ProtocolVersion::LATEST), sender);
        match Method::from_name(name).filter(|m| m.in_handshake()) {
            None => cx.refuse(Error::method_not_found(name)),
            Some(method) if !method.before_initialize() => cx.refuse(Error::invalid_request(
                "the session is not initialized: send `initialize` first",
            )),
            Some(Method::Initialize) => methods::initialize(cx, params),
            // `ping`, the other one served before `initialize`.
            Some(_) => cx.serve::<Ping>(params),
        }
    }
}

/// A client's response to a question of ours: its `result` as a value,
/// or its error's message.
fn read_client_answer(outcome: Result<&RawValue, &RawValue>) -> ClientReply {
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
