use std::sync::{Arc, OnceLock};

use super::Service;
use super::listen::Listens;
use crate::context::{Outbound, Sink};
use crate::protocol::ProtocolVersion;

/// One client connection's state: the negotiated revision, and what
/// requests may send the client (with its log level and the requests in
/// flight).
pub(crate) struct SessionState {
    version: OnceLock<ProtocolVersion>,
    pub(super) outbound: Outbound,
    /// Its `subscriptions/listen` requests open, counted from the first:
    /// most sessions never open one (a stateless request's never does).
    listens: OnceLock<Arc<Listens>>,
    /// How long the session lasts, for its metric.
    #[cfg(feature = "otel")]
    pub(super) clock: crate::telemetry::otel::SessionClock,
}

impl SessionState {
    pub(crate) fn version(&self) -> Option<ProtocolVersion> {
        self.version.get().copied()
    }

    /// Records the negotiated revision; false if one was already set.
    pub(crate) fn set_version(&self, version: ProtocolVersion) -> bool {
        self.version.set(version).is_ok()
    }

    /// Its `subscriptions/listen` requests open, at `service`'s limit.
    pub(super) fn listens(&self, service: &Service) -> &Arc<Listens> {
        self.listens.get_or_init(|| service.connection_listens())
    }
}

/// A client connection to a [`Service`]: feed it messages, send back its
/// replies.
pub struct Session {
    pub(super) service: Service,
    pub(super) state: Arc<SessionState>,
}

impl Session {
    /// A session of `service` whose messages to the client go to
    /// `outbound`; `version` for a route with no handshake (HTTP without
    /// sessions), as if `initialize` had negotiated it.
    pub(crate) fn new(
        service: Service,
        outbound: Option<Sink>,
        version: Option<ProtocolVersion>,
    ) -> Self {
        let outbound = Outbound::new(outbound, service.limits().wait_bounds());
        Self {
            service,
            state: Arc::new(SessionState {
                version: version.map_or_else(OnceLock::new, OnceLock::from),
                outbound,
                listens: OnceLock::new(),
                #[cfg(feature = "otel")]
                clock: crate::telemetry::otel::SessionClock::default(),
            }),
        }
    }

    /// The service the session belongs to.
    pub(crate) fn service(&self) -> &Service {
        &self.service
    }

    /// Whether a request of the session is still being worked on, or
    /// waits for the client's answer to a question: a transport that keeps
    /// sessions (as HTTP does) drops an idle one only when it is not busy,
    /// however long ago its last message came.
    ///
    /// ```
    /// use mcp_prompts::{DynamicPrompt, Server};
    ///
    /// let hello = DynamicPrompt::builder("hello").template("Hi").build().unwrap();
    /// let service = Server::new("prompts", "1.0").prompts([hello]).build().unwrap();
    /// let session = service.session(None);
    /// assert!(!session.is_busy());
    /// ```
    pub fn is_busy(&self) -> bool {
        self.state.outbound.is_busy()
    }

    /// The transport's places for requests in flight, which a request
    /// waiting for the client's answer gives back while it waits.
    pub(crate) fn lend_in_flight(&self, places: Arc<tokio::sync::Semaphore>) {
        self.state.outbound.lend_in_flight(places);
    }

    /// The connection has ended: what its requests still wait for from the
    /// client will not come, so they stop waiting.
    pub(crate) fn end(&self) {
        self.state.outbound.close();
    }

    /// The revision negotiated by `initialize`, once it has been.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.state.version()
    }
}
