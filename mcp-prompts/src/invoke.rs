//! What calling a prompt function gives: a sync result ready at once, or an
//! async one as a boxed future.

pub(crate) mod catching;

use std::future::Future;
use std::pin::Pin;

use crate::error::Error;
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

/// A boxed future of user code.
pub(crate) type BoxedResult<T> = Pin<Box<dyn Future<Output = Result<T, Error>> + Send>>;
