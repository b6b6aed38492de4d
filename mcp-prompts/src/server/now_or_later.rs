//! [`NowOrLater`]: a value now, or one still being produced. Every handler
//! gives its result this way, so that a sync prompt or a listing is
//! answered at once, with no task and no allocation, and only work that
//! waits is boxed.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// A value ready now, or a future that produces it.
pub(crate) enum NowOrLater<T> {
    Now(T),
    Later(Later<T>),
}

/// A value still being produced.
pub(crate) type Later<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<T: Send + 'static> NowOrLater<T> {
    /// A future's value, once it is ready.
    pub(crate) fn later(future: impl Future<Output = T> + Send + 'static) -> Self {
        Self::Later(Box::pin(future))
    }

    /// Applies `f` to the value: now, or once it is ready.
    pub(crate) fn map<U, F>(self, f: F) -> NowOrLater<U>
    where
        F: FnOnce(T) -> U + Send + 'static,
        U: Send + 'static,
    {
        match self {
            Self::Now(value) => NowOrLater::Now(f(value)),
            Self::Later(future) => NowOrLater::later(async move { f(future.await) }),
        }
    }
}

/// Polls a future once, where a runtime is there for it: its value if it
/// is ready. One that waits is then polled by its task, which registers
/// the waker that counts.
pub(crate) fn poll_once<F: Future + Unpin>(future: &mut F) -> Option<F::Output> {
    tokio::runtime::Handle::try_current().ok()?;
    let mut cx = Context::from_waker(Waker::noop());
    match Pin::new(future).poll(&mut cx) {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}

/// A future that waited at a first poll made before it was in flight (see
/// `get/call.rs`): its next poll, the handler's own first poll, yields
/// rather than run it further where nothing holds a place for it. Its
/// task polls on.
pub(crate) struct PolledOnce<F> {
    future: F,
    yielded: bool,
}

impl<F> PolledOnce<F> {
    pub(crate) fn new(future: F) -> Self {
        Self {
            future,
            yielded: false,
        }
    }
}

impl<F: Future + Unpin> Future for PolledOnce<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        if !self.yielded {
            self.yielded = true;
            // Whoever polls next (its task) is woken to.
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        Pin::new(&mut self.future).poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::{NowOrLater, PolledOnce, poll_once};

    #[tokio::test]
    async fn maps_a_value_now_or_later() {
        let now = NowOrLater::Now(2).map(|n| n * 10);
        assert!(matches!(now, NowOrLater::Now(20)));
        let later = NowOrLater::later(async { 3 }).map(|n| n + 1);
        let NowOrLater::Later(later) = later else {
            panic!("a value later stays later once mapped");
        };
        assert_eq!(later.await, 4);
    }

    #[tokio::test]
    async fn polls_once_for_a_value_ready_now() {
        assert_eq!(poll_once(&mut std::future::ready(5)), Some(5));
        let mut waits = Box::pin(tokio::task::yield_now());
        assert_eq!(poll_once(&mut waits), None);
    }

    #[tokio::test]
    async fn a_future_polled_once_yields_its_next_poll_then_goes_on() {
        let mut polled = PolledOnce::new(std::future::ready(7));
        assert_eq!(poll_once(&mut polled), None);
        assert_eq!(poll_once(&mut polled), Some(7));
    }

    #[test]
    fn polls_nothing_without_a_runtime() {
        assert_eq!(poll_once(&mut std::future::ready(5)), None);
    }
}
