//! What a prompt can know about the request it serves.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use crate::ProtocolVersion;
use crate::protocol::jsonrpc;
use crate::server::SessionState;

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
    session: Arc<SessionState>,
    /// Where this request's notifications go, when not to the session's
    /// own stream (HTTP sends them on the request's response).
    route: Option<mpsc::Sender<String>>,
}

impl RequestContext {
    pub(crate) fn new(
        id: RequestId,
        version: ProtocolVersion,
        session: Arc<SessionState>,
        route: Option<mpsc::Sender<String>>,
    ) -> Self {
        Self {
            id,
            version,
            session,
            route,
        }
    }

    /// The protocol revision negotiated for this session.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// The JSON-RPC id of the request.
    pub fn request_id(&self) -> &RequestId {
        &self.id
    }

    /// Sends a `notifications/message` log message to the client if `level`
    /// is at or above the level the client set (default: `info`).
    ///
    /// Best effort: a message that cannot be queued is dropped.
    pub fn log(&self, level: LogLevel, data: impl Serialize) {
        #[derive(Serialize)]
        struct Params<D> {
            level: LogLevel,
            data: D,
        }
        if level < self.session.log_level() {
            return;
        }
        let message = jsonrpc::notification("notifications/message", &Params { level, data });
        // Once the request is answered its route is closed; later messages
        // (from work the prompt left running) go to the session's stream.
        match &self.route {
            Some(route) => {
                if let Err(mpsc::error::TrySendError::Closed(message)) = route.try_send(message) {
                    self.session.notify(message);
                }
            }
            None => self.session.notify(message),
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

/// A JSON-RPC request id: a string or an integer, kept as the client sent it.
#[derive(Clone)]
pub struct RequestId(Box<RawValue>);

impl PartialEq for RequestId {
    fn eq(&self, other: &Self) -> bool {
        self.as_json() == other.as_json()
    }
}

impl Eq for RequestId {}

impl RequestId {
    pub(crate) fn new(raw: &RawValue) -> Self {
        Self(raw.to_owned())
    }

    /// The id as JSON text: `7` or `"abc"`.
    pub fn as_json(&self) -> &str {
        self.0.get()
    }

    /// The id as an integer, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.get().parse().ok()
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_json())
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_json())
    }
}

/// Log severity, from RFC 5424, as MCP uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// A warning.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    const ALL: [Self; 8] = [
        Self::Debug,
        Self::Info,
        Self::Notice,
        Self::Warning,
        Self::Error,
        Self::Critical,
        Self::Alert,
        Self::Emergency,
    ];

    /// The level's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }

    /// Parses a wire name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == name)
    }

    pub(crate) fn from_index(index: u8) -> Self {
        Self::ALL[usize::from(index).min(Self::ALL.len() - 1)]
    }
}
