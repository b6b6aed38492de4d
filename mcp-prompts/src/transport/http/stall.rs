//! A connection that fails its write once the client has taken nothing
//! for a while. A client that asks for a large answer and never reads it
//! would otherwise keep the answer's bytes, and their share of the unsent
//! budget, for as long as it keeps the connection open: a few such
//! clients would leave every other one refused as "busy". Time spent
//! waiting for a request, or on an event stream with nothing to send,
//! is no stall: only a write the socket cannot take counts.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// `io`, whose writes fail with [`io::ErrorKind::TimedOut`] once one has
/// waited `limit` without the client taking a byte.
pub(super) struct StallGuard<S> {
    io: S,
    limit: Duration,
    /// Armed while a write waits: when it gives up.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl<S> StallGuard<S> {
    pub(super) fn new(io: S, limit: Duration) -> Self {
        Self {
            io,
            limit,
            deadline: None,
        }
    }

    /// Called with a write's result: progress disarms the deadline; a
    /// write that waits arms it (once) and fails when it passes.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.deadline = None;
            return polled;
        }
        let limit = self.limit;
        let deadline = self
            .deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(Instant::now() + limit)));
        ready!(deadline.as_mut().poll(cx));
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client took nothing of its answer for the write timeout",
        )))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for StallGuard<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for StallGuard<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watch(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.watch(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt as _;

    #[tokio::test(start_paused = true)]
    async fn a_write_the_peer_never_takes_fails_after_the_limit() {
        // A pipe of 64 bytes that nobody reads.
        let (near, _far) = tokio::io::duplex(64);
        let mut guarded = StallGuard::new(near, Duration::from_secs(30));
        let started = Instant::now();
        let err = guarded.write_all(&[0; 1024]).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(30));
    }

    #[tokio::test(start_paused = true)]
    async fn a_slow_reader_that_keeps_taking_is_no_stall() {
        let (near, mut far) = tokio::io::duplex(64);
        let mut guarded = StallGuard::new(near, Duration::from_secs(30));
        let reader = tokio::spawn(async move {
            let mut buf = [0; 64];
            let mut taken = 0;
            while taken < 1024 {
                tokio::time::sleep(Duration::from_secs(20)).await;
                taken += tokio::io::AsyncReadExt::read(&mut far, &mut buf)
                    .await
                    .unwrap();
            }
            taken
        });
        // 16 pauses of 20 s: over the limit in all, never in one.
        guarded.write_all(&[0; 1024]).await.unwrap();
        drop(guarded);
        assert_eq!(reader.await.unwrap(), 1024);
    }
}
