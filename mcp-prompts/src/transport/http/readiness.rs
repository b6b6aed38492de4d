//! What `/readyz` asks beyond the drain: a check of the application's own
//! (say, that the folders its prompts come from can still be read). The
//! probes answer anyone, so the check never runs on the runtime's threads
//! (a hung network mount would stall them), never more than once at a time
//! nor more than once a second, and why it fails is logged when readiness
//! changes, never sent.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

type Check = dyn Fn() -> Result<(), String> + Send + Sync;

/// How long one answer stands for later probes.
const FRESH_FOR: Duration = Duration::from_secs(1);

/// How long a check may take before the probe calls it failed.
const TIME_LIMIT: Duration = Duration::from_secs(2);

/// [`HttpOptions::ready_when`](crate::HttpOptions::ready_when)'s check.
#[derive(Clone)]
pub(crate) struct ReadyCheck {
    check: Arc<Check>,
    /// The last answer and when it was found: probes in the meantime, and
    /// those that come while a check runs, take it.
    last: Arc<Mutex<Option<(Instant, bool)>>>,
}

impl fmt::Debug for ReadyCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadyCheck").finish_non_exhaustive()
    }
}

impl ReadyCheck {
    pub(crate) fn new(check: impl Fn() -> Result<(), String> + Send + Sync + 'static) -> Self {
        Self {
            check: Arc::new(check),
            last: Arc::new(Mutex::new(None)),
        }
    }

    /// Whether the check passes: its last answer if fresh, else a new one
    /// (a change from the last is logged, with why).
    pub(crate) async fn passes(&self) -> bool {
        let mut last = self.last.lock().await;
        if let Some((at, ready)) = *last {
            if at.elapsed() < FRESH_FOR {
                return ready;
            }
        }
        let check = Arc::clone(&self.check);
        let outcome =
            match tokio::time::timeout(TIME_LIMIT, tokio::task::spawn_blocking(move || check()))
                .await
            {
                Ok(Ok(outcome)) => outcome,
                Ok(Err(_)) => Err("the check panicked".to_owned()),
                Err(_) => Err(format!("the check took over {TIME_LIMIT:?}")),
            };
        let ready = outcome.is_ok();
        let was_ready = last.is_none_or(|(_, ready)| ready);
        if was_ready != ready {
            match outcome {
                Ok(()) => tracing::info!("ready again: /readyz answers 200"),
                Err(reason) => tracing::warn!(%reason, "not ready: /readyz answers 503"),
            }
        }
        *last = Some((Instant::now(), ready));
        ready
    }
}
