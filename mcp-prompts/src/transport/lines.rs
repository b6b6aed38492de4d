//! Newline-delimited messages read with a bound on memory.

use memchr::memchr;
use serde_json::value::RawValue;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use crate::protocol::jsonrpc::recover_id;

/// How many bytes of an oversized message's start and end are kept to find its id.
const EDGE: usize = 256;

pub(crate) enum Line<'a> {
    Message(&'a [u8]),
    /// A message over the limit, discarded; its id if it could be recovered.
    TooLong(Option<Box<RawValue>>),
    Eof,
}

pub(crate) struct LineReader<R> {
    reader: BufReader<R>,
    buf: Vec<u8>,
    limit: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(crate) fn new(reader: R, limit: usize) -> Self {
        Self {
            reader: BufReader::with_capacity(64 * 1024, reader),
            buf: Vec::new(),
            limit,
        }
    }

    /// The next line without its `\n` (or `\r\n`); never holds more than
    /// `limit` bytes of one line in memory.
    pub(crate) async fn next(&mut self) -> std::io::Result<Line<'_>> {
        self.buf.clear();
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(if self.buf.is_empty() {
                    Line::Eof
                } else {
                    Line::Message(trim_cr(&self.buf))
                });
            }
            let (chunk, found) = match memchr(b'\n', available) {
                Some(i) => (&available[..i], true),
                None => (available, false),
            };
            if self.buf.len() + chunk.len() > self.limit {
                return self.discard_rest().await.map(Line::TooLong);
            }
            self.buf.extend_from_slice(chunk);
            let used = chunk.len() + usize::from(found);
            self.reader.consume(used);
            if found {
                return Ok(Line::Message(trim_cr(&self.buf)));
            }
        }
    }

    /// Skips to the end of an oversized line, keeping its first and last bytes.
    async fn discard_rest(&mut self) -> std::io::Result<Option<Box<RawValue>>> {
        let mut head = std::mem::take(&mut self.buf);
        head.truncate(EDGE);
        let mut tail: Vec<u8> = Vec::with_capacity(2 * EDGE);
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                break;
            }
            let (chunk, found) = match memchr(b'\n', available) {
                Some(i) => (&available[..i], true),
                None => (available, false),
            };
            if head.len() < EDGE {
                let take = (EDGE - head.len()).min(chunk.len());
                head.extend_from_slice(&chunk[..take]);
            }
            tail.extend_from_slice(&chunk[chunk.len().saturating_sub(EDGE)..]);
            if tail.len() > EDGE {
                tail.drain(..tail.len() - EDGE);
            }
            let used = chunk.len() + usize::from(found);
            self.reader.consume(used);
            if found {
                break;
            }
        }
        Ok(recover_id(&head, trim_cr(&tail)))
    }
}

fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn splits_lines_and_bounds_them() {
        let input = format!(
            "{{\"a\":1}}\r\n{{\"jsonrpc\":\"2.0\",\"id\":9,\"x\":\"{}\"}}\nlast",
            "y".repeat(1000)
        );
        let mut lines = LineReader::new(input.as_bytes(), 100);
        assert!(matches!(
            lines.next().await.unwrap(),
            Line::Message(b"{\"a\":1}")
        ));
        match lines.next().await.unwrap() {
            Line::TooLong(Some(id)) => assert_eq!(id.get(), "9"),
            _ => panic!("expected an oversized line with its id"),
        }
        assert!(matches!(
            lines.next().await.unwrap(),
            Line::Message(b"last")
        ));
        assert!(matches!(lines.next().await.unwrap(), Line::Eof));
    }
}
