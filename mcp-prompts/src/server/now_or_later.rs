//! [`NowOrLater`]: a value now, or one still being produced. Every handler
//! gives its result this way, so that a sync prompt or a listing is
//! answered at once, with no task and no allocation, and only work that
//! waits is boxed.

use std::future::Future;
use std::pin::Pin;

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

#[cfg(test)]
mod tests {
    use super::NowOrLater;

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
}
