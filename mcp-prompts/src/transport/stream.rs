//! Newline-delimited JSON-RPC over any async byte streams (a pipe, a
//! socket, memory): the connection loop with async reads, and a task that
//! writes.

use std::io;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter};

use super::connection::{Lines, in_flight_places, serve_lines};
use super::lines::{Line, LineReader};
use super::output::{WriteQueue, Written};
use crate::context::Reservation;
use crate::server::Service;

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
        let (output, written) = WriteQueue::new(self.limits().pending_output_bytes());
        let writer = tokio::spawn(write_loop(written, writer));
        let mut lines = AsyncLines {
            reader: LineReader::new(reader, self.limits().message_bytes()),
            output: output.clone(),
        };
        let in_flight = in_flight_places(self);
        let read = serve_lines(self, &mut lines, output.sink(), &output, in_flight).await;
        // The writer ends once every sender is gone: ours, and those of
        // requests still in flight, which finish first.
        drop((lines, output));
        let written = writer.await.map_err(io::Error::other)?;
        read.and(written)
    }
}

/// Lines from an async stream; every answer goes through the queue, in order.
struct AsyncLines<R> {
    reader: LineReader<R>,
    output: WriteQueue,
}

impl<R: AsyncRead + Unpin> Lines for AsyncLines<R> {
    async fn next_line(&mut self) -> io::Result<Line<'_>> {
        self.reader.next().await
    }

    async fn reply(&mut self, message: String, reserved: Option<Reservation>) -> io::Result<bool> {
        // Waits while the client is behind on reading.
        Ok(self.output.send(message, reserved).await)
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(mut written: Written, writer: W) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 * 1024, writer);
    // Each message's permit and reservation go once it is written.
    while let Some((message, _permit, _reserved)) = written.recv().await {
        write_message(&mut out, &message).await?;
        // Write whatever else is already queued before paying for a flush.
        while let Ok((message, _permit, _reserved)) = written.try_recv() {
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
