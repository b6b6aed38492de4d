//! Messages on their way to a writer, within a byte budget: each holds its
//! size in permits until it is written, so however slowly the client
//! reads, what waits for it stays bounded. An answer reserved from the
//! service's unsent budget holds that reservation too, until it is written.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use crate::context::{Reservation, Sink};

/// A message, with its share of the budget until it is written, and its
/// bytes reserved from the service's unsent budget, if they were.
pub(crate) type Queued = (String, OwnedSemaphorePermit, Option<Reservation>);

/// The writer's end.
pub(crate) type Written = mpsc::UnboundedReceiver<Queued>;

/// Called as each message is queued: what starts a writer that is only
/// started once there is something to write.
pub(crate) type WakeWriter = Arc<dyn Fn() + Send + Sync>;

/// The senders' end; cheap to clone.
#[derive(Clone)]
pub(crate) struct WriteQueue {
    queue: mpsc::UnboundedSender<Queued>,
    budget: Arc<Semaphore>,
    /// The budget; a larger message takes all of it.
    max: u32,
    wake_writer: Option<WakeWriter>,
}

impl WriteQueue {
    pub(crate) fn new(max_bytes: usize) -> (Self, Written) {
        let max = u32::try_from(max_bytes).unwrap_or(u32::MAX).max(1);
        let (queue, written) = mpsc::unbounded_channel();
        let budget = Arc::new(Semaphore::new(max as usize));
        let wake_writer = None;
        (
            Self {
                queue,
                budget,
                max,
                wake_writer,
            },
            written,
        )
    }

    /// The same queue, calling `wake` as each message is queued.
    pub(crate) fn waking(mut self, wake: WakeWriter) -> Self {
        self.wake_writer = Some(wake);
        self
    }

    fn queue(&self, queued: Queued) -> bool {
        let sent = self.queue.send(queued).is_ok();
        if let Some(wake) = &self.wake_writer {
            wake();
        }
        sent
    }

    /// What `message` takes of the budget: its line, newline included.
    fn cost(&self, message: &str) -> u32 {
        u32::try_from(message.len() + 1).map_or(self.max, |n| n.min(self.max))
    }

    /// Queues a response once the budget has room for it, with its
    /// `reserved` bytes; false if the writer has stopped.
    pub(crate) async fn send(&self, message: String, reserved: Option<Reservation>) -> bool {
        let cost = self.cost(&message);
        let Ok(permit) = Arc::clone(&self.budget).acquire_many_owned(cost).await else {
            return false;
        };
        self.queue((message, permit, reserved))
    }

    /// Queues a notification if the budget has room for it now; otherwise
    /// drops it, as best-effort messages are.
    pub(crate) fn try_send(&self, message: String) -> bool {
        let cost = self.cost(&message);
        match Arc::clone(&self.budget).try_acquire_many_owned(cost) {
            Ok(permit) => self.queue((message, permit, None)),
            Err(_) => false,
        }
    }

    /// A handle to wait for the queue to drain with, which (unlike a
    /// clone) does not keep the writer waiting for more.
    pub(crate) fn drain(&self) -> Drain {
        Drain {
            budget: Arc::clone(&self.budget),
            max: self.max,
        }
    }

    /// A session's sink for server-sent messages, queued behind the
    /// responses already waiting, so a request's log messages reach the
    /// client before its response.
    pub(crate) fn sink(&self) -> Sink {
        let output = self.clone();
        Box::new(move |message| output.try_send(message.to_json()))
    }
}

/// Waits for a [`WriteQueue`] to drain.
pub(crate) struct Drain {
    budget: Arc<Semaphore>,
    max: u32,
}

impl Drain {
    /// Waits until every message queued so far is written: each holds its
    /// share of the budget until then (the first of a batch until the
    /// batch is flushed).
    pub(crate) async fn wait(&self) {
        let _ = self.budget.acquire_many(self.max).await;
    }
}
