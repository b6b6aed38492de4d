//! The cancellation of one request in flight: fired by the session when the
//! client sends `notifications/cancelled`, watched by the session (which
//! drops the request's work) and by the request's context (which can stop
//! work the prompt runs elsewhere).

use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

#[derive(Default)]
pub(crate) struct Cancel {
    fired: AtomicBool,
    wake: Notify,
}

impl Cancel {
    pub(crate) fn fire(&self) {
        self.fired.store(true, Ordering::Release);
        self.wake.notify_waiters();
    }

    pub(crate) fn is_fired(&self) -> bool {
        self.fired.load(Ordering::Acquire)
    }

    /// Completes once fired.
    pub(crate) async fn fired(&self) {
        let wake = self.wake.notified();
        if self.is_fired() {
            return;
        }
        wake.await;
    }
}
