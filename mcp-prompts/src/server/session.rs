use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use tokio::sync::Notify;

use super::Service;
use crate::ProtocolVersion;
use crate::context::{Outbound, Sink};

/// One client connection's state: the negotiated revision, what requests
/// may send the client (with its log level), and the requests in flight.
pub(crate) struct SessionState {
    version: OnceLock<ProtocolVersion>,
    pub(crate) outbound: Outbound,
    /// Requests still being worked on, by id as sent, so that
    /// `notifications/cancelled` can stop them.
    in_flight: Mutex<HashMap<Box<str>, Arc<Notify>>>,
}

impl SessionState {
    pub(crate) fn version(&self) -> Option<ProtocolVersion> {
        self.version.get().copied()
    }

    /// Records the negotiated revision; false if one was already set.
    pub(crate) fn set_version(&self, version: ProtocolVersion) -> bool {
        self.version.set(version).is_ok()
    }

    /// Registers request `id` as in flight; the returned signal fires if
    /// the client cancels it.
    pub(crate) fn track(&self, id: &str) -> Arc<Notify> {
        let signal = Arc::new(Notify::new());
        self.in_flight().insert(id.into(), Arc::clone(&signal));
        signal
    }

    /// Forgets request `id` once it is done (unless the id was reused since).
    pub(crate) fn untrack(&self, id: &str, signal: &Arc<Notify>) {
        let mut in_flight = self.in_flight();
        if in_flight.get(id).is_some_and(|s| Arc::ptr_eq(s, signal)) {
            in_flight.remove(id);
        }
    }

    /// Cancels request `id`; an unknown or finished one is ignored, as the
    /// specification allows.
    pub(crate) fn cancel(&self, id: &str) {
        if let Some(signal) = self.in_flight().remove(id) {
            // Stores a permit if the request has not started waiting yet.
            signal.notify_one();
        }
    }

    fn in_flight(&self) -> MutexGuard<'_, HashMap<Box<str>, Arc<Notify>>> {
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// A client connection to a [`Service`]: feed it messages, send back its
/// replies.
pub struct Session {
    pub(crate) service: Service,
    pub(crate) state: Arc<SessionState>,
}

impl Session {
    pub(crate) fn new(service: Service, outbound: Option<Sink>) -> Self {
        Self {
            service,
            state: Arc::new(SessionState {
                version: OnceLock::new(),
                outbound: Outbound::new(outbound),
                in_flight: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// A session that skips the handshake, as if `initialize` had
    /// negotiated `version`: how stateless HTTP serves each request.
    #[cfg(feature = "http")]
    pub(crate) fn initialized(service: Service, version: ProtocolVersion) -> Self {
        let session = Self::new(service, None);
        session.state.set_version(version);
        session
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
