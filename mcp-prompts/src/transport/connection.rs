//! The loop every newline-delimited connection runs, whatever carries its
//! bytes: read a line, answer it, write the answer or start the work that
//! will. [`stdio`](super::stdio) runs it on a thread of its own with
//! blocking I/O; [`stream`](super::stream) runs it over async streams.
//!
//! Memory is bounded whatever the client does: a line is read up to the
//! message limit, at most `max_in_flight` requests are worked on at once,
//! and at most `max_pending_output_bytes` of messages wait for the client
//! to read them. At either bound, reading pauses. An answer larger than
//! that still goes out whole; the answers whose size is known before they
//! are made (skills and their files) count against the service's budget
//! for answers not yet read, across every connection, from before they
//! are made until they are written.

use std::io;
use std::sync::Arc;

use tokio::sync::Semaphore;

use super::edge::{Reply, reply, written};
use super::lines::Line;
use super::output::WriteQueue;
use crate::context::{Reservation, Sender, Sink};
use crate::protocol::jsonrpc::parse_failure;
use crate::server::dispatch::Parsed;
use crate::server::{Response, Service, Session};

/// How one kind of connection reads lines and writes the answers it has
/// at once. Answers that come later, and messages sent from other tasks,
/// go through the connection's [`WriteQueue`] instead.
pub(super) trait Lines {
    /// The next line of input.
    async fn next_line(&mut self) -> io::Result<Line<'_>>;

    /// Writes (or queues) an answer that is ready now, holding `reserved`
    /// (its bytes, reserved from the unsent budget) until it is written;
    /// `Ok(false)` once the output has closed, its error then being the
    /// writer's to report.
    async fn reply(&mut self, message: String, reserved: Option<Reservation>) -> io::Result<bool>;
}

/// The places for requests in flight on one connection: each running
/// request holds one.
pub(super) fn in_flight_places(service: &Service) -> Arc<Semaphore> {
    Arc::new(Semaphore::new(service.limits().in_flight()))
}

/// Serves one connection until its input ends or fails. Requests still
/// waiting for an answer from the client get none; those still running
/// finish, writing through `output`, after this returns. Each request
/// worked on after its first poll holds one of the `in_flight` places.
pub(super) async fn serve_lines(
    service: &Service,
    lines: &mut impl Lines,
    sink: Sink,
    output: &WriteQueue,
    in_flight: Arc<Semaphore>,
) -> io::Result<()> {
    let session = service.session_with_sink(sink);
    session.lend_in_flight(Arc::clone(&in_flight));
    // The local user, whose answers' reservations this loop holds.
    // Lines name no language: only HTTP has a header for it.
    let sender = Sender::LOCAL.keeping_reservations(false);
    let read = loop {
        let reply = match lines.next_line().await {
            Err(err) => break Err(err),
            Ok(line) => match answer(&session, line, &sender) {
                Some(reply) => reply,
                None => break Ok(()),
            },
        };
        let reserved = sender.take_reserved();
        match reply {
            Reply::None => {}
            Reply::Now(message) | Reply::Rejected(message) => {
                match lines.reply(message, reserved).await {
                    Ok(true) => {}
                    Ok(false) => break Ok(()),
                    Err(err) => break Err(err),
                }
            }
            Reply::Later(future) => {
                // Waits while `max_in_flight` requests are running.
                let Ok(running) = Arc::clone(&in_flight).acquire_owned().await else {
                    unreachable!("the semaphore is never closed")
                };
                let output = output.clone();
                // A large answer takes its bytes when it is made: taken
                // with it. The connection's answers share one place, so
                // another's may come along, given back a little early:
                // the output queue's own bound holds what waits.
                let sender = sender.clone();
                tokio::spawn(async move {
                    if let Some(message) = future.await {
                        if let Some(reserved) = reserved {
                            sender.keep(reserved);
                        }
                        let reserved = sender.take_reserved();
                        output.send(message, reserved).await;
                    }
                    drop(running);
                });
            }
        }
    };
    session.end();
    read
}

/// What `session` answers to one line of input from `sender`; `None` at
/// its end.
fn answer(session: &Session, line: Line<'_>, sender: &Sender) -> Option<Reply> {
    Some(match line {
        Line::Eof => return None,
        Line::TooLong { head, tail } => {
            written(session, session.reject_oversized(head, tail), sender)
        }
        Line::Message(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) if text.trim().is_empty() => Reply::None,
            Ok(text) => reply(session, || Parsed::new(text), sender),
            Err(_) => Reply::Rejected(Response::rejection(&parse_failure(""))),
        },
    })
}
