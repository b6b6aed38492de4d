//! The guard user code runs under (prompts, completers): a panic becomes
//! an error naming the culprit, kept on the server (the client sees -32603
//! with an error id), and the server keeps serving.

use std::any::Any;
use std::borrow::Cow;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use super::BoxedResult;
use crate::error::Error;

/// What user code is running, for the message when it panics:
/// `prompt `greet``, `completer of prompt `greet``.
#[derive(Clone)]
pub(crate) struct PanicSite {
    kind: &'static str,
    /// Borrowed for a `#[prompt]`; a run-time prompt's name is copied.
    name: Cow<'static, str>,
}

impl PanicSite {
    /// `kind` of code (`prompt`, `completer of`) of the thing `name`.
    pub(crate) fn new(kind: &'static str, name: impl Into<Cow<'static, str>>) -> Self {
        Self {
            kind,
            name: name.into(),
        }
    }
}

/// Runs `f`, turning a panic into an internal error naming the culprit.
pub(crate) fn call_catching<T>(
    culprit: &PanicSite,
    f: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(panicked(culprit, &*payload)))
}

/// A future that turns a panic while polling into an internal error.
pub(crate) struct CatchPanic<T> {
    culprit: PanicSite,
    future: BoxedResult<T>,
}

impl<T> CatchPanic<T> {
    /// `future`, its panics reported as `culprit`'s.
    pub(crate) fn new(culprit: PanicSite, future: BoxedResult<T>) -> Self {
        Self { culprit, future }
    }
}

impl<T> Future for CatchPanic<T> {
    type Output = Result<T, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match catch_unwind(AssertUnwindSafe(|| self.future.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready(Err(panicked(&self.culprit, &*payload))),
        }
    }
}

fn panicked(culprit: &PanicSite, payload: &(dyn Any + Send)) -> Error {
    let PanicSite { kind, name } = culprit;
    let detail = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    Error::hidden(match detail {
        Some(detail) => format!("{kind} `{name}` panicked: {detail}"),
        None => format!("{kind} `{name}` panicked"),
    })
}
