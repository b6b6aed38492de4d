use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

use tokio::sync::mpsc;

use super::Service;
use crate::{LogLevel, ProtocolVersion};

/// One client connection's state: the negotiated revision and log level.
pub(crate) struct SessionState {
    version: OnceLock<ProtocolVersion>,
    log_level: AtomicU8,
    outbound: Option<mpsc::Sender<String>>,
}

impl SessionState {
    pub(crate) fn version(&self) -> Option<ProtocolVersion> {
        self.version.get().copied()
    }

    /// Records the negotiated revision; false if one was already set.
    pub(crate) fn set_version(&self, version: ProtocolVersion) -> bool {
        self.version.set(version).is_ok()
    }

    pub(crate) fn log_level(&self) -> LogLevel {
        LogLevel::from_index(self.log_level.load(Ordering::Relaxed))
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        self.log_level.store(level as u8, Ordering::Relaxed);
    }

    /// Queues a server-initiated message; dropped if the queue is full.
    pub(crate) fn notify(&self, message: String) {
        if let Some(outbound) = &self.outbound {
            let _ = outbound.try_send(message);
        }
    }
}

/// A client connection to a [`Service`]: feed it messages, send back its
/// replies.
pub struct Session {
    pub(crate) service: Service,
    pub(crate) state: Arc<SessionState>,
}

impl Session {
    pub(crate) fn new(service: Service, outbound: Option<mpsc::Sender<String>>) -> Self {
        Self {
            service,
            state: Arc::new(SessionState {
                version: OnceLock::new(),
                log_level: AtomicU8::new(LogLevel::Info as u8),
                outbound,
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

    /// The revision negotiated by `initialize`, once it has been.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.state.version()
    }
}
