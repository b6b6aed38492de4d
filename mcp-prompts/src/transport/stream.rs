//! Newline-delimited JSON-RPC over any async byte streams (a pipe, a
//! socket, memory).
//!
//! Memory is bounded whatever the client does: a line is read up to the
//! message limit, at most `max_in_flight` requests are worked on at once,
//! and at most `max_pending_output_bytes` of messages wait for the client
//! to read them. At either bound, reading pauses.

use std::io;
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::Semaphore;

use super::lines::LineReader;
use super::output::{Output, Written};
use crate::server::{Reply, Service};

impl Service {
    /// Serves one connection of newline-delimited JSON-RPC over any async
    /// byte streams (a pipe, a socket).
    ///
    /// Requests are handled concurrently: a slow async prompt never delays
    /// the next message. At end of input, every request in flight is
    /// answered before this returns. Reading pauses while
    /// [`max_in_flight`](crate::Server::max_in_flight) requests are running
    /// or [`max_pending_output_bytes`](crate::Server::max_pending_output_bytes)
    /// of messages wait for the client to read them.
    ///
    /// For the process's own stdin and stdout, use
    /// [`serve_stdio`](Self::serve_stdio) instead: tokio's `Stdin` and
    /// `Stdout` hand every read and write to a blocking thread, which costs
    /// about five times the CPU (and some 25 futex calls a request). Served
    /// here, tokio's `Stdout` gets a warning in the log.
    pub async fn serve_io<R, W>(&self, reader: R, writer: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        if std::any::TypeId::of::<W>() == std::any::TypeId::of::<tokio::io::Stdout>() {
            tracing::warn!(
                "serve_io on tokio's stdout: serve_stdio serves stdio at about a fifth of the CPU"
            );
        }
        let limits = *self.limits();
        let (output, written) = Output::new(limits.pending_output_bytes);
        let writer = tokio::spawn(write_loop(written, writer));
        let session = self.session_with_sink(output.sink());
        let in_flight = Arc::new(Semaphore::new(limits.in_flight));
        session.lend_in_flight(Arc::clone(&in_flight));
        let mut lines = LineReader::new(reader, limits.message_bytes);
        let read_result = loop {
            let reply = match lines.next().await {
                Err(err) => break Err(err),
                Ok(line) => match super::answer(&session, line) {
                    Some(reply) => reply,
                    None => break Ok(()),
                },
            };
            let sent = match reply {
                Reply::None => true,
                // Waits while the client is behind on reading.
                Reply::Now(message) | Reply::Rejected(message) => output.send(message).await,
                Reply::Later(future) => {
                    // Waits while `max_in_flight` requests are running.
                    let Ok(running) = Arc::clone(&in_flight).acquire_owned().await else {
                        unreachable!("the semaphore is never closed")
                    };
                    let output = output.clone();
                    tokio::spawn(async move {
                        if let Some(message) = future.await {
                            output.send(message).await;
                        }
                        drop(running);
                    });
                    true
                }
            };
            if !sent {
                // The writer stopped (the output closed); its error is reported below.
                break Ok(());
            }
        };
        // Requests still waiting for an answer from the client get none.
        session.end();
        // The writer ends once every sender is gone: ours, the session's,
        // and those of requests still in flight, which finish first.
        drop(session);
        drop(output);
        let write_result = writer.await.map_err(io::Error::other)?;
        read_result.and(write_result)
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(mut written: Written, writer: W) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 * 1024, writer);
    while let Some((message, _permit)) = written.recv().await {
        write_message(&mut out, &message).await?;
        // Write whatever else is already queued before paying for a flush.
        while let Ok((message, _permit)) = written.try_recv() {
            write_message(&mut out, &message).await?;
        }
        out.flush().await?;
    }
    out.flush().await
}

async fn write_message<W: AsyncWrite + Unpin>(
    out: &mut BufWriter<W>,
    message: &str,
) -> io::Result<()> {
    out.write_all(message.as_bytes()).await?;
    out.write_all(b"\n").await
}
