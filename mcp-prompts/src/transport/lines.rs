//! Newline-delimited messages read with a bound on memory, from an async
//! stream or a blocking one. Both share [`Splitter`], which decides what
//! each buffered chunk of input does to the line being read.

use std::io::BufRead;

use memchr::memchr;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// How many bytes of an oversized message's start and end are kept to find its id.
const EDGE: usize = 256;

/// How much input is read at a time.
const READ_BUFFER: usize = 64 * 1024;

#[derive(Clone, Copy)]
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

/// The line being read: its bytes so far, or, once it went over the
/// limit, only its first and last bytes.
struct Splitter {
    buf: Vec<u8>,
    /// The last bytes of an oversized line.
    tail: Vec<u8>,
    limit: usize,
    oversized: bool,
}

impl Splitter {
    fn new(limit: usize) -> Self {
        Self {
            buf: Vec::new(),
            tail: Vec::new(),
            limit,
            oversized: false,
        }
    }

    fn start(&mut self) {
        self.buf.clear();
        self.oversized = false;
    }

    /// Takes bytes from `available` (never empty) up to the end of the
    /// line: how many it took, and whether the line ended (its newline is
    /// among them).
    fn feed(&mut self, available: &[u8]) -> (usize, bool) {
        let (chunk, found) = match memchr(b'\n', available) {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        if !self.oversized && self.buf.len() + chunk.len() > self.limit {
            self.oversized = true;
            // The line's end may be short: its tail starts in what was read.
            self.tail.clear();
            self.tail
                .extend_from_slice(&self.buf[self.buf.len().saturating_sub(EDGE)..]);
            self.buf.truncate(EDGE);
        }
        if self.oversized {
            if self.buf.len() < EDGE {
                let take = (EDGE - self.buf.len()).min(chunk.len());
                self.buf.extend_from_slice(&chunk[..take]);
            }
            self.tail
                .extend_from_slice(&chunk[chunk.len().saturating_sub(EDGE)..]);
            if self.tail.len() > EDGE {
                self.tail.drain(..self.tail.len() - EDGE);
            }
        } else {
            self.buf.extend_from_slice(chunk);
        }
        (chunk.len() + usize::from(found), found)
    }

    /// The line read, once it ended (or the input did).
    fn line(&self, at_eof: bool) -> Line<'_> {
        if self.oversized {
            Line::TooLong {
                head: &self.buf,
                tail: trim_cr(&self.tail),
            }
        } else if at_eof && self.buf.is_empty() {
            Line::Eof
        } else {
            Line::Message(trim_cr(&self.buf))
        }
    }
}

/// Lines from an async stream.
pub(crate) struct LineReader<R> {
    reader: BufReader<R>,
    splitter: Splitter,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(crate) fn new(reader: R, limit: usize) -> Self {
        Self {
            reader: BufReader::with_capacity(READ_BUFFER, reader),
            splitter: Splitter::new(limit),
        }
    }

    /// The next line without its `\n` (or `\r\n`); never holds more than
    /// `limit` bytes of one line in memory.
    pub(crate) async fn next(&mut self) -> std::io::Result<Line<'_>> {
        self.splitter.start();
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(self.splitter.line(true));
            }
            let (used, ended) = self.splitter.feed(available);
            self.reader.consume(used);
            if ended {
                return Ok(self.splitter.line(false));
            }
        }
    }
}

/// Lines from a blocking stream, read on a thread of its own.
pub(crate) struct BlockingLineReader<R> {
    reader: std::io::BufReader<R>,
    splitter: Splitter,
}

impl<R: std::io::Read> BlockingLineReader<R> {
    pub(crate) fn new(reader: R, limit: usize) -> Self {
        Self {
            reader: std::io::BufReader::with_capacity(READ_BUFFER, reader),
            splitter: Splitter::new(limit),
        }
    }

    /// Like [`LineReader::next`], blocking.
    pub(crate) fn next(&mut self) -> std::io::Result<Line<'_>> {
        self.splitter.start();
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if available.is_empty() {
                return Ok(self.splitter.line(true));
            }
            let (used, ended) = self.splitter.feed(available);
            self.reader.consume(used);
            if ended {
                return Ok(self.splitter.line(false));
            }
        }
    }

    /// Whether a whole line is already buffered, so the next [`next`]
    /// will not wait for input.
    ///
    /// [`next`]: Self::next
    pub(crate) fn has_line(&self) -> bool {
        memchr(b'\n', self.reader.buffer()).is_some()
    }
}

fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "{\"a\":1}\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"x\":\"";

    fn input() -> String {
        format!("{INPUT}{}\"}}\nlast", "y".repeat(1000))
    }

    fn check_oversized(line: &Line<'_>) {
        match line {
            Line::TooLong { head, tail } => {
                assert!(head.starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":9,"));
                assert!(tail.ends_with(b"yyy\"}"));
            }
            _ => panic!("expected an oversized line"),
        }
    }

    #[tokio::test]
    async fn splits_lines_and_bounds_them() {
        let input = input();
        let mut lines = LineReader::new(input.as_bytes(), 100);
        assert!(matches!(
            lines.next().await.unwrap(),
            Line::Message(b"{\"a\":1}")
        ));
        check_oversized(&lines.next().await.unwrap());
        assert!(matches!(
            lines.next().await.unwrap(),
            Line::Message(b"last")
        ));
        assert!(matches!(lines.next().await.unwrap(), Line::Eof));
    }

    #[test]
    fn blocking_reader_splits_the_same_way_in_any_chunks() {
        /// Hands out at most 7 bytes per read.
        struct Trickle<'a>(&'a [u8]);
        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(7).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let input = input();
        let mut lines = BlockingLineReader::new(Trickle(input.as_bytes()), 100);
        assert!(matches!(lines.next().unwrap(), Line::Message(b"{\"a\":1}")));
        check_oversized(&lines.next().unwrap());
        assert!(matches!(lines.next().unwrap(), Line::Message(b"last")));
        assert!(matches!(lines.next().unwrap(), Line::Eof));
    }
}
