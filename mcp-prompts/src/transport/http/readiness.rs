//! What `/readyz` asks beyond the drain: a check of the application's own
//! (say, that the folders its prompts come from can still be read). The
//! probes answer anyone, so the check never runs on the runtime's threads
//! (a hung network mount would stall them), never more than one at a time
//! (one still running past its time limit is waited for, not joined by
//! another), at most once a second, and why it fails is logged when
//! readiness changes, never sent.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;
use tokio::task::JoinHandle;

type Check = dyn Fn() -> Result<(), String> + Send + Sync;

/// How long one answer stands for later probes.
const FRESH_FOR: Duration = Duration::from_secs(1);

/// How long a check may take before the probe calls it failed.
const TIME_LIMIT: Duration = Duration::from_secs(2);

/// [`HttpOptions::ready_when`](crate::HttpOptions::ready_when)'s check.
#[derive(Clone)]
pub(crate) struct ReadyCheck {
    check: Arc<Check>,
    state: Arc<Mutex<State>>,
}

/// What the probes share: the last answer, and a check still running.
#[derive(Default)]
struct State {
    /// The last answer and when it was found: probes in the meantime, and
    /// those that come while a check runs, take it.
    last: Option<(Instant, bool)>,
    /// A check that outlived its time limit, still on its thread.
    running: Option<JoinHandle<Result<(), String>>>,
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
            state: Arc::new(Mutex::new(State::default())),
        }
    }

    /// Whether the check passes: its last answer if fresh, else a new one
    /// (a change from the last is logged, with why).
    pub(crate) async fn passes(&self) -> bool {
        let mut state = self.state.lock().await;
        if let Some((at, ready)) = state.last {
            if at.elapsed() < FRESH_FOR {
                return ready;
            }
        }
        let mut check = match state.running.take() {
            // Still stuck: not ready, and no second thread for it.
            Some(running) if !running.is_finished() => {
                state.running = Some(running);
                return self.found(&mut state, Err("the check is still running".to_owned()));
            }
            // Done since: its answer is the one to give.
            Some(done) => done,
            None => {
                let check = Arc::clone(&self.check);
                tokio::task::spawn_blocking(move || check())
            }
        };
        let outcome = match tokio::time::timeout(TIME_LIMIT, &mut check).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(_)) => Err("the check panicked".to_owned()),
            Err(_) => {
                state.running = Some(check);
                Err(format!("the check took over {TIME_LIMIT:?}"))
            }
        };
        self.found(&mut state, outcome)
    }

    /// Keeps `outcome` as the last answer, logging a change.
    #[allow(clippy::unused_self)] // beside `passes`, whose answers it keeps
    fn found(&self, state: &mut State, outcome: Result<(), String>) -> bool {
        let ready = outcome.is_ok();
        let was_ready = state.last.is_none_or(|(_, ready)| ready);
        if was_ready != ready {
            match outcome {
                Ok(()) => tracing::info!("ready again: /readyz answers 200"),
                Err(reason) => tracing::warn!(%reason, "not ready: /readyz answers 503"),
            }
        }
        state.last = Some((Instant::now(), ready));
        ready
    }
}
