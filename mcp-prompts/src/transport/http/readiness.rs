//! What `/readyz` asks beyond the drain: a check of the application's own
//! (say, that the folders its prompts come from can still be read), whose
//! reason is logged when readiness changes and never sent, since the
//! probes answer anyone.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

type Check = dyn Fn() -> Result<(), String> + Send + Sync;

/// [`HttpOptions::ready_when`](crate::HttpOptions::ready_when)'s check.
#[derive(Clone)]
pub(crate) struct ReadyCheck {
    check: Arc<Check>,
    /// What the last probe found: a change is logged, not every probe.
    was_ready: Arc<AtomicBool>,
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
            was_ready: Arc::new(AtomicBool::new(true)),
        }
    }

    /// Runs the check; a change from the last probe is logged, with why.
    pub(crate) fn passes(&self) -> bool {
        let outcome = (self.check)();
        let ready = outcome.is_ok();
        if self.was_ready.swap(ready, Ordering::Relaxed) != ready {
            match outcome {
                Ok(()) => tracing::info!("ready again: /readyz answers 200"),
                Err(reason) => tracing::warn!(%reason, "not ready: /readyz answers 503"),
            }
        }
        ready
    }
}
