//! The header timeout's clock: one timer per connection, moved later for
//! each request instead of made anew.
//!
//! hyper asks its timer for a new sleep each time it starts reading a
//! request's head (the header timeout, which also bounds a keep-alive
//! connection's idle time), and drops it once the head is read. With
//! tokio's own sleeps, every request then registers a timer in the
//! runtime's wheel and takes it out again, each under the wheel's lock.
//! Here the connection keeps one sleep registered and pushes its deadline
//! later for each head, which tokio does with one atomic update while the
//! new deadline is the later one, as it always is.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::time::Sleep;

use crate::sync::lock;

/// A connection's timer for hyper: its sleeps share one tokio sleep.
#[derive(Clone, Default)]
pub(super) struct HeaderTimer(Arc<Shared>);

#[derive(Default)]
struct Shared {
    /// Made at the first head; then moved to each new deadline.
    sleep: Mutex<Option<Pin<Box<Sleep>>>>,
    /// Whether a sleep handed out still shares it: another asked for
    /// meanwhile gets one of its own.
    lent: AtomicBool,
}

impl hyper::rt::Timer for HeaderTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        // As tokio's own sleep does, a duration past what an instant holds
        // is a deadline some years out rather than a panic.
        let now = self.now();
        let deadline = now
            .checked_add(duration)
            .unwrap_or_else(|| now + Duration::from_secs(86_400 * 365 * 30));
        self.sleep_until(deadline)
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        let deadline = tokio::time::Instant::from_std(deadline);
        if self.0.lent.swap(true, Ordering::AcqRel) {
            return Box::pin(OwnSleep(Box::pin(tokio::time::sleep_until(deadline))));
        }
        let mut sleep = lock(&self.0.sleep);
        match sleep.as_mut() {
            Some(sleep) => sleep.as_mut().reset(deadline),
            None => *sleep = Some(Box::pin(tokio::time::sleep_until(deadline))),
        }
        Box::pin(LentSleep(Arc::clone(&self.0)))
    }

    fn reset(&self, sleep: &mut Pin<Box<dyn hyper::rt::Sleep>>, new_deadline: Instant) {
        let deadline = tokio::time::Instant::from_std(new_deadline);
        if let Some(lent) = sleep.as_mut().downcast_mut_pin::<LentSleep>() {
            if Arc::ptr_eq(&lent.0, &self.0) {
                if let Some(shared) = lock(&self.0.sleep).as_mut() {
                    shared.as_mut().reset(deadline);
                }
                return;
            }
        }
        if let Some(own) = sleep.as_mut().downcast_mut_pin::<OwnSleep>() {
            own.get_mut().0.as_mut().reset(deadline);
            return;
        }
        *sleep = self.sleep_until(new_deadline);
    }

    /// The runtime's clock, which its sleeps keep (and a test pauses).
    fn now(&self) -> Instant {
        tokio::time::Instant::now().into_std()
    }
}

/// The connection's sleep, lent to hyper until it drops it. The sleep
/// stays registered after; if its deadline passes first, it wakes the
/// connection's task once, for nothing.
struct LentSleep(Arc<Shared>);

impl Future for LentSleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match lock(&self.0.sleep).as_mut() {
            Some(sleep) => sleep.as_mut().poll(cx),
            // Set before a sleep is lent; never taken.
            None => Poll::Ready(()),
        }
    }
}

impl hyper::rt::Sleep for LentSleep {}

impl Drop for LentSleep {
    fn drop(&mut self) {
        self.0.lent.store(false, Ordering::Release);
    }
}

/// A sleep of its own, for one asked for while another is lent.
struct OwnSleep(Pin<Box<Sleep>>);

impl hyper::rt::Sleep for OwnSleep {}

impl Future for OwnSleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.0.as_mut().poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use hyper::rt::Timer;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_lent_sleep_ends_at_its_latest_deadline() {
        let timer = HeaderTimer::default();
        let first = timer.sleep(Duration::from_secs(5));
        drop(first);
        // The next head's deadline moves the same sleep later.
        let started = tokio::time::Instant::now();
        let second = timer.sleep(Duration::from_secs(10));
        second.await;
        assert_about(started, 10);
    }

    #[tokio::test(start_paused = true)]
    async fn a_sleep_asked_for_while_one_is_lent_is_its_own() {
        let timer = HeaderTimer::default();
        let started = tokio::time::Instant::now();
        let lent = timer.sleep(Duration::from_secs(10));
        let own = timer.sleep(Duration::from_secs(3));
        own.await;
        assert_about(started, 3);
        // The lent one kept its own deadline.
        lent.await;
        assert_about(started, 10);
    }

    #[tokio::test(start_paused = true)]
    async fn a_sleep_lent_again_after_its_deadline_passed_waits_again() {
        let timer = HeaderTimer::default();
        timer.sleep(Duration::from_secs(1)).await;
        let started = tokio::time::Instant::now();
        timer.sleep(Duration::from_secs(2)).await;
        assert_about(started, 2);
    }

    #[tokio::test(start_paused = true)]
    async fn a_reset_sleep_ends_at_its_new_deadline() {
        let timer = HeaderTimer::default();
        let started = tokio::time::Instant::now();
        let mut lent = timer.sleep(Duration::from_secs(5));
        timer.reset(&mut lent, timer.now() + Duration::from_secs(8));
        let mut own = timer.sleep(Duration::from_secs(9));
        timer.reset(&mut own, timer.now() + Duration::from_secs(1));
        own.await;
        assert_about(started, 1);
        lent.await;
        assert_about(started, 8);
    }

    /// Ended `seconds` after `started`, give or take the runtime's
    /// millisecond ticks.
    fn assert_about(started: tokio::time::Instant, seconds: u64) {
        let elapsed = started.elapsed();
        let expected = Duration::from_secs(seconds);
        assert!(
            elapsed >= expected && elapsed < expected + Duration::from_millis(10),
            "ended after {elapsed:?}, not {expected:?}"
        );
    }
}
