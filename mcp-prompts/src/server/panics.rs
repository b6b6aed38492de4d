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
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(dispatch)).unwrap_or_else(|_| {
        Response::rejected(Error::internal(
            "the server failed while reading this message",
        ))
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
