//! The server's panic guard: user code (prompts, completers) and the
//! dispatcher itself run under it, so a panic becomes a JSON-RPC error and
//! the server keeps serving.

use std::any::Any;
use std::borrow::Cow;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use super::Reply;
use crate::catalog::{AnyPrompt, Definition};
use crate::error::Error;
use crate::invoke::BoxedResult;

/// Runs `dispatch`, turning a panic into an internal error without an id.
pub(super) fn guarded(dispatch: impl FnOnce() -> Reply) -> Reply {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(dispatch)).unwrap_or_else(|_| {
        Reply::rejected(&Error::internal(
            "the server failed while reading this message",
        ))
    })
}

/// What user code is running, for the message when it panics:
/// `prompt `greet``, `completer of prompt `greet``.
#[derive(Clone)]
pub(crate) struct Culprit {
    pub(crate) kind: &'static str,
    /// Borrowed for a `#[prompt]`; a run-time prompt's name is copied.
    pub(crate) name: Cow<'static, str>,
}

impl Culprit {
    pub(crate) fn prompt(prompt: &AnyPrompt) -> Self {
        Self::of("prompt", prompt)
    }

    pub(crate) fn of(kind: &'static str, prompt: &AnyPrompt) -> Self {
        let name = match &prompt.0 {
            Definition::Macro(def) => Cow::Borrowed(def.name),
            Definition::Dynamic(dynamic) => Cow::Owned(dynamic.name().to_owned()),
        };
        Self { kind, name }
    }
}

/// Runs `f`, turning a panic into an internal error naming the culprit.
pub(crate) fn call_catching<T>(
    culprit: &Culprit,
    f: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(panicked(culprit, &*payload)))
}

/// A future that turns a panic while polling into an internal error.
pub(crate) struct CatchPanic<T> {
    pub(crate) culprit: Culprit,
    pub(crate) future: BoxedResult<T>,
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

fn panicked(culprit: &Culprit, payload: &(dyn Any + Send)) -> Error {
    let Culprit { kind, name } = culprit;
    let detail = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    Error::hidden(match detail {
        Some(detail) => format!("{kind} `{name}` panicked: {detail}"),
        None => format!("{kind} `{name}` panicked"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_while_dispatching_becomes_an_internal_error() {
        let reply = guarded(|| panic!("a bug"));
        let Reply::Rejected(message) = reply else {
            panic!("an answer now")
        };
        let message: serde_json::Value = serde_json::from_str(&message).unwrap();
        assert_eq!(message["error"]["code"], Error::INTERNAL_ERROR);
        assert!(message.get("id").is_none());
    }
}
