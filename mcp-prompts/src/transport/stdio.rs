//! Newline-delimited JSON-RPC on stdin and stdout.

use std::io;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::mpsc;

use super::lines::{Line, LineReader};
use crate::Error;
use crate::protocol::jsonrpc::{failure, parse_failure};
use crate::server::{Reply, Server, Service};

/// Responses waiting for the writer; when full, reading pauses.
const QUEUE: usize = 1024;

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
    /// answered before this returns.
    pub async fn serve_io<R, W>(&self, reader: R, writer: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (tx, rx) = mpsc::channel::<String>(QUEUE);
        let writer = tokio::spawn(write_loop(rx, writer));
        let session = self.session(Some(tx.clone()));
        let limit = self.max_message_bytes();
        let mut lines = LineReader::new(reader, limit);
        let read_result = loop {
            let reply = match lines.next().await {
                Err(err) => break Err(err),
                Ok(Line::Eof) => break Ok(()),
                Ok(Line::TooLong(id)) => Reply::Now(failure(
                    id.as_deref(),
                    &Error::invalid_request(format!(
                        "the message exceeds the limit of {limit} bytes"
                    )),
                )),
                Ok(Line::Message(bytes)) => match std::str::from_utf8(bytes) {
                    Ok(text) if text.trim().is_empty() => continue,
                    Ok(text) => session.handle(text),
                    Err(_) => Reply::Now(failure(None, &parse_failure(""))),
                },
            };
            let sent = match reply {
                Reply::None => true,
                Reply::Now(message) => tx.send(message).await.is_ok(),
                Reply::Later(future) => {
                    let tx = tx.clone();
                    tokio::spawn(async move {
                        if let Some(message) = future.await {
                            let _ = tx.send(message).await;
                        }
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
        drop(tx);
        let write_result = writer.await.map_err(io::Error::other)?;
        read_result.and(write_result)
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(
    mut rx: mpsc::Receiver<String>,
    writer: W,
) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 * 1024, writer);
    while let Some(message) = rx.recv().await {
        write_message(&mut out, &message).await?;
        // Write whatever else is already queued before paying for a flush.
        while let Ok(message) = rx.try_recv() {
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
