//! The dispatcher's panic guard: a panic while reading or dispatching a
//! message becomes a JSON-RPC error and the server keeps serving. (User
//! code runs under its own guard, `invoke::catching`.)

use super::outcome::Response;
use crate::error::Error;

/// Runs `dispatch`, turning a panic into an internal error without an id.
// Inlined into its few callers: called out of line, it costs every
// request about a hundred instructions of moves (callgrind).
#[inline]
pub(super) fn guarded<'a>(dispatch: impl FnOnce() -> Response<'a>) -> Response<'a> {
    guarded_then(dispatch, |response| response)
}

/// Runs `dispatch` and hands what it answers to `edge` (a transport's
/// writer), under one guard: a panic in either is answered as an internal
/// error without an id, handed to `edge` in turn. Only what `edge` makes
/// leaves the guard, not the larger typed response.
#[inline]
pub(super) fn guarded_then<'a, R>(
    dispatch: impl FnOnce() -> Response<'a>,
    edge: impl Fn(Response<'a>) -> R,
) -> R {
    let served = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| edge(dispatch())));
    served.unwrap_or_else(|_| {
        edge(Response::rejected(Error::internal(
            "the server failed while reading this message",
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_while_dispatching_becomes_an_internal_error() {
        let response = guarded(|| panic!("a bug"));
        let Response::Rejected(error) = response else {
            panic!("a rejection naming no request")
        };
        assert_eq!(error.code(), Error::INTERNAL_ERROR);
    }
}
