//! Who hears of a list's changes: the sessions that completed
//! `initialize`, each told with a `list_changed` notification, and the
//! 2026-07-28 `subscriptions/listen` streams, each woken to send its own
//! tagged one. Shared by the live prompt catalog and the live skills.

use std::sync::Mutex;

use tokio::sync::mpsc;

use super::{Outbound, WeakOutbound};
use crate::protocol::to_client::ToClient;
use crate::sync::lock;

/// The sessions and listen streams to tell of a list's changes.
#[derive(Default)]
pub(crate) struct Audience {
    /// Sessions (weak: a finished one is forgotten).
    listeners: Mutex<Vec<WeakOutbound>>,
    /// Listen streams; each is forgotten once its stream ends.
    subscriptions: Mutex<Vec<mpsc::Sender<()>>>,
}

impl Audience {
    /// Tells this session of every change from now on.
    pub(crate) fn listen(&self, outbound: &Outbound) {
        let mut listeners = lock(&self.listeners);
        listeners.retain(WeakOutbound::is_alive);
        listeners.push(outbound.downgrade());
    }

    /// A `subscriptions/listen` stream: woken once per change.
    pub(crate) fn subscribe(&self) -> mpsc::Receiver<()> {
        let (tx, rx) = mpsc::channel(1);
        let mut subscriptions = lock(&self.subscriptions);
        subscriptions.retain(|s| !s.is_closed());
        subscriptions.push(tx);
        rx
    }

    /// Whether nobody is listening.
    pub(crate) fn is_empty(&self) -> bool {
        lock(&self.listeners).iter().all(|l| !l.is_alive())
            && lock(&self.subscriptions)
                .iter()
                .all(mpsc::Sender::is_closed)
    }

    /// Sends each session the message `message` makes, and wakes each
    /// stream.
    pub(crate) fn announce(&self, message: impl Fn() -> ToClient) {
        lock(&self.listeners).retain(|listener| listener.notify(message()));
        // A full channel already holds a wake-up: one is enough.
        lock(&self.subscriptions)
            .retain(|s| !matches!(s.try_send(()), Err(mpsc::error::TrySendError::Closed(()))));
    }
}
