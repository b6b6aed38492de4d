//! Calling a prompt function: sync results are ready at once, async ones are
//! boxed futures; panics in either become internal errors.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::Error;
use crate::message::{IntoPromptResult, PromptResult};

/// A boxed prompt future.
pub type PromptFuture = Pin<Box<dyn Future<Output = Result<PromptResult, Error>> + Send>>;

/// The outcome of calling a prompt's glue function.
pub enum Invocation {
    /// A sync prompt's result, produced inline with no allocation for a future.
    Ready(Result<PromptResult, Error>),
    /// An async prompt's result, still to be awaited.
    Pending(PromptFuture),
}

/// Wraps a sync prompt function's return value.
pub fn ready<R: IntoPromptResult>(value: R) -> Invocation {
    Invocation::Ready(value.into_prompt_result())
}

/// Boxes an async prompt function's future.
pub fn pending<R, F>(future: F) -> Invocation
where
    R: IntoPromptResult,
    F: Future<Output = R> + Send + 'static,
{
    Invocation::Pending(Box::pin(async move { future.await.into_prompt_result() }))
}

/// What user code is running, for the message when it panics:
/// `prompt `greet``, `completer of prompt `greet``.
#[derive(Clone, Copy)]
pub(crate) struct Culprit {
    pub(crate) kind: &'static str,
    pub(crate) name: &'static str,
}

impl Culprit {
    pub(crate) fn prompt(name: &'static str) -> Self {
        Self {
            kind: "prompt",
            name,
        }
    }
}

/// Runs `f`, turning a panic into an internal error naming the culprit.
pub(crate) fn call_catching<T>(
    culprit: Culprit,
    f: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(panicked(culprit, &*payload)))
}

/// A boxed future of user code.
pub(crate) type BoxedResult<T> = Pin<Box<dyn Future<Output = Result<T, Error>> + Send>>;

/// A future that turns a panic while polling into an internal error.
pub(crate) struct CatchPanic<T> {
    pub(crate) culprit: Culprit,
    pub(crate) future: BoxedResult<T>,
}

impl<T> Future for CatchPanic<T> {
    type Output = Result<T, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let culprit = self.culprit;
        match catch_unwind(AssertUnwindSafe(|| self.future.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready(Err(panicked(culprit, &*payload))),
        }
    }
}

fn panicked(culprit: Culprit, payload: &(dyn Any + Send)) -> Error {
    let Culprit { kind, name } = culprit;
    let detail = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    Error::internal(match detail {
        Some(detail) => format!("{kind} `{name}` panicked: {detail}"),
        None => format!("{kind} `{name}` panicked"),
    })
}
