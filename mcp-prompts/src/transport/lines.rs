//! Newline-delimited messages read with a bound on memory.

use memchr::memchr;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// How many bytes of an oversized message's start and end are kept to find its id.
const EDGE: usize = 256;

pub(crate) enum Line<'a> {
    Message(&'a [u8]),
    /// A message over the limit, discarded but for its first and last
    /// bytes, where its id may be found. Either edge may end inside a
    /// character.
    TooLong {
        head: &'a [u8],
        tail: &'a [u8],
    },
    Eof,
}

pub(crate) struct LineReader<R> {
    reader: BufReader<R>,
    buf: Vec<u8>,
    /// The last bytes of an oversized line.
    tail: Vec<u8>,
    limit: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(crate) fn new(reader: R, limit: usize) -> Self {
        Self {
            reader: BufReader::with_capacity(64 * 1024, reader),
            buf: Vec::new(),
            tail: Vec::new(),
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
                self.discard_rest().await?;
                return Ok(Line::TooLong {
                    head: &self.buf,
                    tail: trim_cr(&self.tail),
                });
            }
            self.buf.extend_from_slice(chunk);
            let used = chunk.len() + usize::from(found);
            self.reader.consume(used);
            if found {
                return Ok(Line::Message(trim_cr(&self.buf)));
            }
        }
    }

    /// Skips to the end of an oversized line, keeping its first and last
    /// bytes in `buf` and `tail`.
    async fn discard_rest(&mut self) -> std::io::Result<()> {
        let head = &mut self.buf;
        let tail = &mut self.tail;
        tail.clear();
        // The line's end may be short: its tail starts in what was read.
        tail.extend_from_slice(&head[head.len().saturating_sub(EDGE)..]);
        head.truncate(EDGE);
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
        Ok(())
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
            Line::TooLong { head, tail } => {
                assert!(head.starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":9,"));
                assert!(tail.ends_with(b"yyy\"}"));
            }
            _ => panic!("expected an oversized line"),
        }
        assert!(matches!(
            lines.next().await.unwrap(),
            Line::Message(b"last")
        ));
        assert!(matches!(lines.next().await.unwrap(), Line::Eof));
    }
}
