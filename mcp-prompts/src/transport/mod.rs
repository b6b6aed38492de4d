//! Transports carry messages between a client and a [`Session`](crate::Session).

#[cfg(feature = "http")]
pub(crate) mod http;
mod lines;
mod output;
mod stdio;
mod stream;

use crate::protocol::jsonrpc::parse_failure;
use crate::server::{Reply, Session};
use lines::Line;

/// What `session` answers to one line of input; `None` at its end.
fn answer(session: &Session, line: Line<'_>) -> Option<Reply> {
    Some(match line {
        Line::Eof => return None,
        Line::TooLong { head, tail } => session.reject_oversized(head, tail),
        Line::Message(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) if text.trim().is_empty() => Reply::None,
            Ok(text) => session.handle(text),
            Err(_) => Reply::rejected(&parse_failure("")),
        },
    })
}
