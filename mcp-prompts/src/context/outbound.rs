//! The narrow handle through which requests talk to their client on their
//! own: the session's log level and its stream of server-sent messages.
//! Request contexts hold this, never the server's or the session's state.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use tokio::sync::mpsc;

use super::LogLevel;

/// Where a session's server-sent messages go: the transport's, best
/// effort (a message it cannot take now is dropped).
pub(crate) type Sink = Box<dyn Fn(String) + Send + Sync>;

/// A sink that queues on `channel`, dropping what does not fit.
pub(crate) fn channel_sink(channel: mpsc::Sender<String>) -> Sink {
    Box::new(move |message| {
        let _ = channel.try_send(message);
    })
}

/// Cheap to clone; every clone is the same session's.
#[derive(Clone)]
pub(crate) struct Outbound(Arc<Shared>);

struct Shared {
    log_level: AtomicU8,
    sink: Option<Sink>,
}

impl Outbound {
    /// `sink` takes messages not tied to a request's response; `None`
    /// drops them (a session with nowhere to send them).
    pub(crate) fn new(sink: Option<Sink>) -> Self {
        Self(Arc::new(Shared {
            log_level: AtomicU8::new(LogLevel::Info as u8),
            sink,
        }))
    }

    /// The least severe level the client wants to hear.
    pub(crate) fn log_level(&self) -> LogLevel {
        LogLevel::from_index(self.0.log_level.load(Ordering::Relaxed))
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        self.0.log_level.store(level as u8, Ordering::Relaxed);
    }

    /// Sends a server-initiated message, best effort.
    pub(crate) fn notify(&self, message: String) {
        if let Some(sink) = &self.0.sink {
            sink(message);
        }
    }
}
