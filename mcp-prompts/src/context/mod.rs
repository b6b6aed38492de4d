//! What a prompt can know about the request it serves, and the narrow
//! handle through which it talks back to its client.

mod ask;
mod audience;
mod backchannel;
mod cancel;
mod outbound;
mod progress;
mod request_id;
mod unsent;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::value::RawValue;

use crate::caller::Caller;
use crate::protocol::language::Language;
use crate::protocol::to_client::ToClient;
use crate::protocol::{LogLevel, ProtocolVersion};

pub(crate) use ask::{Asking, InputRound};
pub(crate) use audience::Audience;
pub(crate) use backchannel::{Backchannel, Sender, TextRoute};
pub(crate) use cancel::Cancel;
pub(crate) use outbound::{
    ClientReply, InFlight, LentPlace, Outbound, Sink, WaitBounds, WeakOutbound, channel_sink,
};
pub(crate) use progress::Progress;
pub(crate) use unsent::{Kept, Reservation, UnsentBudget};

pub use request_id::RequestId;

/// The context of one request, available to any prompt that takes it as a
/// parameter. It is injected by the server, not a prompt argument.
///
/// ```
/// use mcp_prompts::{prompt, RequestContext, LogLevel};
///
/// /// Say which protocol revision is in use
/// #[prompt]
/// fn which_revision(ctx: RequestContext) -> String {
///     ctx.log(LogLevel::Debug, "asked for the revision");
///     format!("This session speaks MCP {}.", ctx.protocol_version())
/// }
/// ```
#[derive(Clone)]
pub struct RequestContext {
    id: RequestId,
    version: ProtocolVersion,
    log: LogPolicy,
    asking: Asking,
    progress: Option<Arc<Progress>>,
    /// The request's cancellation, found when first asked for (the request
    /// is in flight only once the prompt's future exists), shared by the
    /// context's clones; `None` if it cannot be cancelled.
    cancel: Arc<OnceLock<Option<Arc<Cancel>>>>,
    outbound: Outbound,
    /// Where this request's notifications go, when not to the session's
    /// own stream (HTTP sends them on the request's response).
    route: Option<Backchannel>,
    /// Who sent the request, when a transport verified it.
    caller: Option<Arc<Caller>>,
    /// The language the prompt answers in.
    language: Language,
}

/// What a [`RequestContext`] is made from, borrowed from the request being
/// served: a context is built from it only for a prompt that takes one.
#[derive(Clone, Copy)]
pub(crate) struct RequestParts<'a> {
    id: &'a RawValue,
    version: ProtocolVersion,
    log: LogPolicy,
    asking: &'a Asking,
    progress: Option<&'a Arc<Progress>>,
    outbound: &'a Outbound,
    route: Option<&'a Backchannel>,
    caller: Option<&'a Arc<Caller>>,
    /// The server's limit on a result's text, which a template's render
    /// stops at.
    max_result_bytes: usize,
    /// The language the prompt answers in.
    language: &'a Language,
    /// Set when a context is made: a prompt that took one may watch for
    /// its cancellation from its first poll.
    made: Option<&'a AtomicBool>,
}

impl<'a> RequestParts<'a> {
    /// Request `id` under `era`, from `sender`: its questions asked as
    /// `asking` says, through `outbound`; `progress` its progress token's
    /// reporter; `max_result_bytes` the server's limit on a result's text;
    /// `language` the one the prompt answers in.
    pub(crate) fn new(
        (id, era): (&'a RawValue, crate::protocol::era::Era),
        asking: &'a Asking,
        progress: Option<&'a Arc<Progress>>,
        (outbound, sender): (&'a Outbound, &'a Sender),
        max_result_bytes: usize,
        language: &'a Language,
    ) -> Self {
        Self {
            id,
            version: era.version(),
            log: LogPolicy::of(era),
            asking,
            progress,
            outbound,
            route: sender.backchannel(),
            caller: sender.caller(),
            max_result_bytes,
            language,
            made: None,
        }
    }

    /// These parts, noting in `made` whether a context is made of them.
    pub(crate) fn noting_context(self, made: &'a AtomicBool) -> Self {
        Self {
            made: Some(made),
            ..self
        }
    }

    /// The revision the request is served under.
    pub(crate) fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// The server's limit on a result's text, which a template's render
    /// stops at.
    pub(crate) fn max_result_bytes(&self) -> usize {
        self.max_result_bytes
    }

    pub(crate) fn context(&self) -> RequestContext {
        if let Some(made) = self.made {
            made.store(true, Ordering::Relaxed);
        }
        RequestContext {
            id: RequestId::new(self.id),
            version: self.version,
            log: self.log,
            asking: self.asking.clone(),
            progress: self.progress.cloned(),
            cancel: Arc::default(),
            outbound: self.outbound.clone(),
            route: self.route.cloned(),
            caller: self.caller.cloned(),
            language: self.language.clone(),
        }
    }
}

/// Which log messages a request's client wants to hear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LogPolicy {
    /// The session's level, as `logging/setLevel` set it (legacy revisions).
    Session,
    /// The request's own `_meta` level; `None`, none at all (2026-07-28).
    Request(Option<LogLevel>),
}

impl LogPolicy {
    /// The policy of a request served under `era`.
    pub(crate) fn of(era: crate::protocol::era::Era) -> Self {
        match era {
            crate::protocol::era::Era::Handshake(_) => Self::Session,
            crate::protocol::era::Era::Stateless(meta) => Self::Request(meta.log_level()),
        }
    }
}

impl RequestContext {
    /// What a context is made of, borrowed back from it.
    pub(crate) fn parts(&self) -> RequestParts<'_> {
        RequestParts {
            id: self.id.raw(),
            version: self.version,
            log: self.log,
            asking: &self.asking,
            progress: self.progress.as_ref(),
            outbound: &self.outbound,
            route: self.route.as_ref(),
            caller: self.caller.as_ref(),
            // What a context's parts serve (binding a form's answer)
            // renders nothing: no limit to pass on.
            max_result_bytes: usize::MAX,
            language: &self.language,
            made: None,
        }
    }

    /// The language to answer in (a BCP 47 tag such as `fr` or
    /// `de-CH`): the one the request prefers among those the prompt has
    /// (its translations, and for a `#[prompt]` those its Fluent texts
    /// have), else the server's default
    /// ([`Server::default_language`](crate::Server::default_language),
    /// `en` unless set). A prompt function chooses its body by it.
    ///
    /// ```
    /// use mcp_prompts::{RequestContext, prompt};
    ///
    /// /// Greets in the language asked for
    /// #[prompt]
    /// fn hello(ctx: RequestContext) -> &'static str {
    ///     match ctx.language() {
    ///         "fr" => "Dis bonjour.",
    ///         _ => "Say hello.",
    ///     }
    /// }
    /// ```
    pub fn language(&self) -> &str {
        self.language.as_str()
    }

    /// The protocol revision the request is served under: the one its
    /// session negotiated, or the one a stateless request carries.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// Who sent the request: the caller its access token proves, when
    /// the server verifies tokens (the `auth` feature) or the app's own
    /// middleware handed one over; `None` over stdio and without auth.
    ///
    /// ```
    /// use mcp_prompts::{RequestContext, prompt};
    ///
    /// /// Greets whoever asks
    /// #[prompt]
    /// fn hello(ctx: RequestContext) -> String {
    ///     match ctx.caller() {
    ///         Some(caller) => format!("Say hello to {}.", caller.subject()),
    ///         None => "Say hello.".to_owned(),
    ///     }
    /// }
    /// ```
    pub fn caller(&self) -> Option<&Caller> {
        self.caller.as_deref()
    }

    /// The JSON-RPC id of the request.
    pub fn request_id(&self) -> &RequestId {
        &self.id
    }

    /// Sends a `notifications/message` log message to the client if `level`
    /// is at or above the level the client asked for: on a session, the
    /// level `logging/setLevel` set (default: `info`); on a stateless
    /// 2026-07-28 request, the level its `_meta` names, and nothing if it
    /// names none.
    ///
    /// Best effort: a message that cannot be queued is dropped.
    pub fn log(&self, level: LogLevel, data: impl Serialize) {
        let least = match self.log {
            LogPolicy::Session => self.outbound.log_level(),
            LogPolicy::Request(Some(least)) => least,
            LogPolicy::Request(None) => return,
        };
        if level < least {
            return;
        }
        match serde_json::to_value(data) {
            Ok(data) => self.send_note(ToClient::Log { level, data }),
            Err(err) => tracing::debug!(%err, "a log message's data does not serialize: dropped"),
        }
    }

    /// Whether the client has cancelled this request. Its response is not
    /// sent either way, and an async prompt's future is dropped at its next
    /// `.await`: this is for work the prompt runs elsewhere (a spawned task,
    /// a thread) that should stop too. Always false for a sync prompt's
    /// request, which is answered before a cancellation can arrive.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation().is_some_and(|cancel| cancel.is_fired())
    }

    fn cancellation(&self) -> Option<&Arc<Cancel>> {
        self.cancel
            .get_or_init(|| self.outbound.cancellation(self.id.raw()))
            .as_ref()
    }

    /// Completes when the client cancels this request; never, for one that
    /// is answered without being cancelled, or that cannot be cancelled (a
    /// sync prompt's).
    ///
    /// ```
    /// use mcp_prompts::{RequestContext, prompt};
    ///
    /// /// Searches until done or cancelled
    /// #[prompt]
    /// async fn search(ctx: RequestContext) -> String {
    ///     let watcher = ctx.clone();
    ///     let work = tokio::spawn(async move {
    ///         tokio::select! {
    ///             () = watcher.cancelled() => "stopped".to_owned(),
    ///             () = std::future::ready(()) => "found it".to_owned(),
    ///         }
    ///     });
    ///     work.await.unwrap_or_default()
    /// }
    /// ```
    pub async fn cancelled(&self) {
        match self.cancellation() {
            Some(cancel) => cancel.fired().await,
            None => std::future::pending().await,
        }
    }

    /// Tells the client how far the request has come, if it asked (with a
    /// `progressToken` in the request's `_meta`): `progress` must grow from
    /// one call to the next (a value not above the last one is dropped),
    /// `total` is the value it will reach, if known, and `message` says
    /// what is happening. Nothing is sent once the request is answered.
    ///
    /// ```
    /// use mcp_prompts::{RequestContext, prompt};
    ///
    /// /// Summarize three sources
    /// #[prompt]
    /// async fn digest(ctx: RequestContext) -> String {
    ///     let mut parts = Vec::new();
    ///     for (done, source) in ["a", "b", "c"].into_iter().enumerate() {
    ///         ctx.progress(done as f64, Some(3.0), Some(&format!("reading {source}")));
    ///         parts.push(source);
    ///     }
    ///     format!("Summarize {}", parts.join(", "))
    /// }
    /// ```
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(state) = &self.progress else {
            return;
        };
        if !state.advance(progress) {
            return;
        }
        // Progress messages exist from 2025-03-26.
        let message = message.filter(|_| self.version >= ProtocolVersion::V2025_03_26);
        self.send_note(ToClient::Progress {
            token: state.token().to_owned(),
            progress,
            total: total.filter(|total| total.is_finite()),
            message: message.map(str::to_owned),
        });
    }

    /// Sends a notification on the request's own stream while it is open,
    /// else on the session's.
    fn send_note(&self, message: ToClient) {
        // Once the request is answered its route is closed; later messages
        // (from work the prompt left running) go to the session's stream.
        match &self.route {
            Some(route) => {
                if let Err(Some(message)) = route.try_send(message) {
                    self.outbound.notify(message);
                }
            }
            None => {
                self.outbound.notify(message);
            }
        }
    }
}

impl fmt::Debug for RequestContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestContext")
            .field("id", &self.id)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}
