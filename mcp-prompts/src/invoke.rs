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

/// Runs `f`, turning a panic into an internal error naming the prompt.
pub(crate) fn call_catching<T>(
    prompt: &str,
    f: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(panicked(prompt, &*payload)))
}

/// A future that turns a panic while polling into an internal error.
pub(crate) struct CatchPanic {
    pub(crate) prompt: &'static str,
    pub(crate) future: PromptFuture,
}

impl Future for CatchPanic {
    type Output = Result<PromptResult, Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let prompt = self.prompt;
        match catch_unwind(AssertUnwindSafe(|| self.future.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready(Err(panicked(prompt, &*payload))),
        }
    }
}

fn panicked(prompt: &str, payload: &(dyn Any + Send)) -> Error {
    let detail = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    Error::internal(match detail {
        Some(detail) => format!("prompt `{prompt}` panicked: {detail}"),
        None => format!("prompt `{prompt}` panicked"),
    })
}
