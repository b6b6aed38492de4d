//! Newline-delimited JSON-RPC on stdin and stdout.
//!
//! Memory is bounded whatever the client does: a line is read up to the
//! message limit, at most `max_in_flight` requests are worked on at once,
//! and at most `max_pending_output_bytes` of responses wait for the client
//! to read them. At either bound, reading pauses.

use std::io;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use super::lines::{Line, LineReader};
use crate::protocol::jsonrpc::{failure, parse_failure};
use crate::server::{Reply, Server, Service};

/// Notifications the server sends on its own (log messages) waiting for
/// the writer; beyond this they are dropped, as best-effort messages.
const NOTIFICATION_QUEUE: usize = 64;

impl Server {
    /// Validates the catalog and serves it on stdin and stdout until stdin
    /// closes; then finishes every request in flight, flushes and returns.
    ///
    /// Nothing but MCP messages is written to stdout.
    pub async fn serve_stdio(self) -> io::Result<()> {
        let service = self
            .build()
            .map_err(|err| io::Error::new(io::ErrorKind::InvalidInput, err))?;
        service
            .serve_io(tokio::io::stdin(), tokio::io::stdout())
            .await
    }
}

impl Service {
    /// Serves one connection of newline-delimited JSON-RPC over any byte
    /// streams (stdio, a pipe, a socket).
    ///
    /// Requests are handled concurrently: a slow async prompt never delays
    /// the next message. At end of input, every request in flight is
    /// answered before this returns. Reading pauses while
    /// [`max_in_flight`](Server::max_in_flight) requests are running or
    /// [`max_pending_output_bytes`](Server::max_pending_output_bytes) of
    /// responses wait for the client to read them.
    pub async fn serve_io<R, W>(&self, reader: R, writer: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let limits = *self.limits();
        let (replies, replies_rx) = Output::new(limits.pending_output_bytes);
        let (notes, notes_rx) = mpsc::channel(NOTIFICATION_QUEUE);
        let writer = tokio::spawn(write_loop(replies_rx, notes_rx, writer));
        let session = self.session(Some(notes));
        let in_flight = Arc::new(Semaphore::new(limits.in_flight));
        let mut lines = LineReader::new(reader, limits.message_bytes);
        let read_result = loop {
            let reply = match lines.next().await {
                Err(err) => break Err(err),
                Ok(Line::Eof) => break Ok(()),
                Ok(Line::TooLong { head, tail }) => session.reject_oversized(head, tail),
                Ok(Line::Message(bytes)) => match std::str::from_utf8(bytes) {
                    Ok(text) if text.trim().is_empty() => continue,
                    Ok(text) => session.handle(text),
                    Err(_) => Reply::Now(failure(None, &parse_failure(""))),
                },
            };
            let sent = match reply {
                Reply::None => true,
                // Waits while the client is behind on reading.
                Reply::Now(message) => replies.send(message).await,
                Reply::Later(future) => {
                    // Waits while `max_in_flight` requests are running.
                    let Ok(running) = Arc::clone(&in_flight).acquire_owned().await else {
                        unreachable!("the semaphore is never closed")
                    };
                    let replies = replies.clone();
                    tokio::spawn(async move {
                        if let Some(message) = future.await {
                            replies.send(message).await;
                        }
                        drop(running);
                    });
                    true
                }
            };
            if !sent {
                // The writer stopped (stdout closed); its error is reported below.
                break Ok(());
            }
        };
        // The writer ends once every sender is gone: ours, the session's,
        // and those of requests still in flight, which finish first.
        drop(session);
        drop(replies);
        let write_result = writer.await.map_err(io::Error::other)?;
        read_result.and(write_result)
    }
}

/// Responses on their way to the writer, each holding its size in permits
/// of a byte budget until it is written.
#[derive(Clone)]
struct Output {
    queue: mpsc::UnboundedSender<(String, OwnedSemaphorePermit)>,
    budget: Arc<Semaphore>,
    /// The budget; a larger response takes all of it.
    max: u32,
}

type Written = mpsc::UnboundedReceiver<(String, OwnedSemaphorePermit)>;

impl Output {
    fn new(max_bytes: usize) -> (Self, Written) {
        let max = u32::try_from(max_bytes).unwrap_or(u32::MAX).max(1);
        let (queue, written) = mpsc::unbounded_channel();
        let budget = Arc::new(Semaphore::new(max as usize));
        (Self { queue, budget, max }, written)
    }

    /// Queues `message` once the budget has room for it; false if the
    /// writer has stopped.
    async fn send(&self, message: String) -> bool {
        // The line's newline counts too.
        let cost = u32::try_from(message.len() + 1).map_or(self.max, |n| n.min(self.max));
        let Ok(permit) = Arc::clone(&self.budget).acquire_many_owned(cost).await else {
            return false;
        };
        self.queue.send((message, permit)).is_ok()
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(
    mut replies: Written,
    mut notes: mpsc::Receiver<String>,
    writer: W,
) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 * 1024, writer);
    while let Some(outgoing) = std::future::poll_fn(|cx| next(cx, &mut notes, &mut replies)).await {
        match outgoing {
            Outgoing::Note(note) => write_message(&mut out, &note).await?,
            Outgoing::Reply(message, _permit) => write_message(&mut out, &message).await?,
        }
        // Write whatever else is already queued before paying for a flush.
        loop {
            if let Ok(note) = notes.try_recv() {
                write_message(&mut out, &note).await?;
            } else if let Ok((message, _permit)) = replies.try_recv() {
                write_message(&mut out, &message).await?;
            } else {
                break;
            }
        }
        out.flush().await?;
    }
    out.flush().await
}
enum Outgoing {
    Note(String),
    /// A response, with its share of the byte budget until it is written.
    Reply(String, OwnedSemaphorePermit),
}

/// The next message to write: notifications first, since a request's log
/// messages are queued before its response and must reach the client
/// before it. `None` once both queues are closed and empty.
fn next(
    cx: &mut Context<'_>,
    notes: &mut mpsc::Receiver<String>,
    replies: &mut Written,
) -> Poll<Option<Outgoing>> {
    let notes = notes.poll_recv(cx);
    if let Poll::Ready(Some(note)) = notes {
        return Poll::Ready(Some(Outgoing::Note(note)));
    }
    match replies.poll_recv(cx) {
        Poll::Ready(Some((message, permit))) => Poll::Ready(Some(Outgoing::Reply(message, permit))),
        Poll::Ready(None) if notes.is_ready() => Poll::Ready(None),
        _ => Poll::Pending,
    }
}

async fn write_message<W: AsyncWrite + Unpin>(
    out: &mut BufWriter<W>,
    message: &str,
) -> io::Result<()> {
    out.write_all(message.as_bytes()).await?;
    out.write_all(b"\n").await
}
