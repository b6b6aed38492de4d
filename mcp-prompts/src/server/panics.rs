//! The dispatcher's panic guard: a panic while reading or dispatching a
//! message becomes a JSON-RPC error and the server keeps serving. (User
//! code runs under its own guard, `invoke::catching`.)

use super::Reply;
use crate::error::Error;

/// Runs `dispatch`, turning a panic into an internal error without an id.
// Inlined into its few callers: called out of line, it costs every
// request about a hundred instructions of moves (callgrind).
#[inline]
pub(super) fn guarded(dispatch: impl FnOnce() -> Reply) -> Reply {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(dispatch)).unwrap_or_else(|_| {
        Reply::rejected(&Error::internal(
            "the server failed while reading this message",
        ))
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
