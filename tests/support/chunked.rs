//! A reader that hands out its input one chunk per read, so a test or a
//! fuzz target decides where reads split a stream. Shared by
//! `tests/properties.rs` and `fuzz/fuzz_targets/lines.rs`.

use std::pin::Pin;
use std::task::{Context, Poll};

/// One chunk per read; the end of input once all are read.
pub struct Chunked(pub Vec<Vec<u8>>);

impl tokio::io::AsyncRead for Chunked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if let Some(chunk) = self.0.first_mut() {
            let n = chunk.len().min(buf.remaining());
            buf.put_slice(&chunk[..n]);
            chunk.drain(..n);
            if chunk.is_empty() {
                self.0.remove(0);
            }
        }
        Poll::Ready(Ok(()))
    }
}
