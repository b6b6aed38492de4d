//! The narrow handle through which requests talk to their client on their
//! own: the session's log level and its stream of server-sent messages.
//! Request contexts hold this, never the server's or the session's state.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use tokio::sync::mpsc;

use super::LogLevel;

/// Cheap to clone; every clone is the same session's.
#[derive(Clone)]
pub(crate) struct Outbound(Arc<Shared>);

struct Shared {
    log_level: AtomicU8,
    stream: Option<mpsc::Sender<String>>,
}

impl Outbound {
    /// `stream` takes messages not tied to a request's response; `None`
    /// drops them (a session with nowhere to send them).
    pub(crate) fn new(stream: Option<mpsc::Sender<String>>) -> Self {
        Self(Arc::new(Shared {
            log_level: AtomicU8::new(LogLevel::Info as u8),
            stream,
        }))
    }

    /// The least severe level the client wants to hear.
    pub(crate) fn log_level(&self) -> LogLevel {
        LogLevel::from_index(self.0.log_level.load(Ordering::Relaxed))
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        self.0.log_level.store(level as u8, Ordering::Relaxed);
    }

    /// Queues a server-initiated message; dropped if the queue is full.
    pub(crate) fn notify(&self, message: String) {
        if let Some(stream) = &self.0.stream {
            let _ = stream.try_send(message);
        }
    }
}
