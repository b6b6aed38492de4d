//! Newline-delimited JSON-RPC on the process's stdin and stdout, served
//! the way a hand-written loop would: one thread reads a line, handles it
//! and writes the response, with plain blocking I/O. No message crosses a
//! thread on the common path (sync prompts, async prompts that never wait,
//! listings, completion from lists), and responses are flushed once no
//! whole line of input is waiting: one write per response for a client
//! that waits for each, a few large writes for one that sends many.
//!
//! Async work that does wait runs as a task on the caller's runtime; its
//! response, and any message sent from another thread, goes through a
//! byte-budgeted queue to a second thread that writes it, started by the
//! first such message (`writer.rs`). Blocking writes
//! and the bound on requests in flight give back-pressure: a client that
//! stops reading stops the server reading.
//!
//! Plain blocking reads and writes work whatever stdin and stdout are (a
//! pipe, a file, a terminal, `/dev/null`) on every platform, in either
//! kind of tokio runtime.

mod writer;

use std::io::{self, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use tokio::runtime::Handle;
use tokio::sync::{Semaphore, oneshot};

use super::connection::{Lines, in_flight_places, serve_lines};
use super::lines::{BlockingLineReader, Line};
use super::output::{Drain, WriteQueue};
use crate::context::{Reservation, Sink};
use crate::server::{Server, Service};
use writer::{QueueWriter, Shared};

impl Server {
    /// Validates the catalog and serves it on stdin and stdout until stdin
    /// closes; then finishes every request in flight, flushes and returns.
    ///
    /// Nothing but MCP messages is written to stdout.
    pub async fn serve_stdio(self) -> io::Result<()> {
        self.serve_stdio_until(std::future::pending()).await
    }

    /// Like [`serve_stdio`](Self::serve_stdio), but also stops when
    /// `shutdown` completes (a signal, say): requests still running finish
    /// (for up to ten seconds), their answers are written and flushed, and
    /// it returns `Ok`.
    ///
    /// ```no_run
    /// # async fn run() -> std::io::Result<()> {
    /// let stop = async {
    ///     let _ = tokio::signal::ctrl_c().await;
    /// };
    /// mcp_prompts::Server::new("prompts", "1.0").serve_stdio_until(stop).await
    /// # }
    /// ```
    pub async fn serve_stdio_until(self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
        let service = self
            .build()
            .map_err(|err| io::Error::new(io::ErrorKind::InvalidInput, err))?;
        service.serve_stdio_until(shutdown).await
    }
}

/// How long requests still running at a shutdown may take to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

impl Service {
    /// Serves this service on stdin and stdout until stdin closes; see
    /// [`Server::serve_stdio`]. Reading pauses while
    /// [`max_in_flight`](Server::max_in_flight) requests are running, or
    /// while the client is not reading what was written.
    pub async fn serve_stdio(&self) -> io::Result<()> {
        self.serve_stdio_until(std::future::pending()).await
    }

    /// Serves on stdin and stdout until stdin closes or `shutdown`
    /// completes; see [`Server::serve_stdio_until`].
    pub async fn serve_stdio_until(&self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
        let (reader, writer) = (raw_stdin()?, raw_stdout()?);
        let service = self.clone();
        let runtime = Handle::current();
        tracing::info!(prompts = self.prompt_count(), "serving MCP on stdio");
        super::empty::warn_if_empty(self);
        let (ready, draining) = oneshot::channel();
        let (done, served) = oneshot::channel();
        // A thread of its own, not the runtime's blocking pool: a read
        // that blocks for ever must not hold the runtime's shutdown up.
        thread::Builder::new()
            .name("mcp-prompts-stdin".into())
            .spawn(move || {
                let _ = done.send(serve_blocking(&service, &runtime, reader, writer, ready));
            })?;
        let mut shutdown = std::pin::pin!(shutdown);
        let mut served = served;
        // Whichever comes first: the end of stdin, or the shutdown.
        let ended = std::future::poll_fn(|cx| {
            if let Poll::Ready(served) = Pin::new(&mut served).poll(cx) {
                return Poll::Ready(Some(served));
            }
            shutdown.as_mut().poll(cx).map(|()| None)
        })
        .await;
        let served = match ended {
            Some(served) => {
                served.unwrap_or_else(|_| Err(io::Error::other("the stdio server panicked")))
            }
            None => match draining.await {
                Ok(draining) => draining.drain().await,
                Err(_) => Ok(()),
            },
        };
        tracing::info!(?served, "stdio closed");
        served
    }
}

/// What a shutdown waits for: the line being served, the requests in
/// flight, the answers they queued, then stdout flushed; all within
/// [`SHUTDOWN_GRACE`], since a client that stopped reading could hold any
/// of them up for ever.
struct Draining {
    /// Set at shutdown: the serving thread takes no further line.
    stopping: Arc<AtomicBool>,
    in_flight: Arc<Semaphore>,
    places: u32,
    output: Drain,
    flush: Box<dyn Fn() -> io::Result<()> + Send>,
}

impl Draining {
    async fn drain(self) -> io::Result<()> {
        self.stopping.store(true, Ordering::Relaxed);
        let Self {
            in_flight,
            places,
            output,
            flush,
            ..
        } = self;
        let drained = async {
            let _ = in_flight.acquire_many(places).await;
            output.wait().await;
            // On a thread of its own: a write blocked on a full pipe must
            // not keep the runtime from shutting down.
            let (done, flushed) = oneshot::channel();
            std::thread::spawn(move || {
                let _ = done.send(flush());
            });
            flushed.await.unwrap_or(Ok(()))
        };
        match tokio::time::timeout(SHUTDOWN_GRACE, drained).await {
            Ok(flushed) => flushed,
            Err(_) => {
                tracing::warn!("what was still running or unwritten at shutdown was dropped");
                Ok(())
            }
        }
    }
}

/// Stdin without the standard library's buffer and lock in front of it.
fn raw_stdin() -> io::Result<Box<dyn Read + Send>> {
    #[cfg(any(unix, windows))]
    return Ok(Box::new(unbuffered(&io::stdin())?));
    #[cfg(not(any(unix, windows)))]
    Ok(Box::new(io::stdin()))
}

/// Stdout without the standard library's line buffering, which would
/// write every response on its own.
fn raw_stdout() -> io::Result<Box<dyn Write + Send>> {
    #[cfg(any(unix, windows))]
    return Ok(Box::new(unbuffered(&io::stdout())?));
    #[cfg(not(any(unix, windows)))]
    Ok(Box::new(io::stdout()))
}

/// A file of its own on a standard stream's descriptor.
#[cfg(unix)]
fn unbuffered<T: std::os::fd::AsFd>(stream: &T) -> io::Result<std::fs::File> {
    Ok(stream.as_fd().try_clone_to_owned()?.into())
}

/// A file of its own on a standard stream's handle.
#[cfg(windows)]
fn unbuffered<T: std::os::windows::io::AsHandle>(stream: &T) -> io::Result<std::fs::File> {
    Ok(stream.as_handle().try_clone_to_owned()?.into())
}

/// Where a session's own messages (log messages) go: written in place
/// when sent by the serving thread, before the response it is working on;
/// from any other thread, queued for the writer thread.
fn sink<W: Write + Send + 'static>(shared: &Arc<Shared<W>>, queue: &WriteQueue) -> Sink {
    let (shared, queue) = (Arc::clone(shared), queue.clone());
    Box::new(move |message| {
        if shared.is_serving() {
            // Best effort, like every notification: a failed write shows
            // again, and is reported, with the next response.
            shared.write(&message.to_json()).is_ok()
        } else {
            queue.try_send(message.to_json())
        }
    })
}

fn serve_blocking<R: Read, W: Write + Send + 'static>(
    service: &Service,
    runtime: &Handle,
    reader: R,
    writer: W,
    ready: oneshot::Sender<Draining>,
) -> io::Result<()> {
    let limits = *service.limits();
    let shared = Arc::new(Shared::new(writer));
    let (queue, written) = WriteQueue::new(limits.pending_output_bytes());
    let writer = QueueWriter::new(Arc::clone(&shared), written);
    let queue = queue.waking(writer.waker());
    let mut lines = BlockingLines {
        reader: BlockingLineReader::new(reader, limits.message_bytes()),
        shared: Arc::clone(&shared),
        stopping: Arc::default(),
    };
    // Every read blocks this thread, so the loop's future never waits for
    // input: it is polled once, and again only while all `max_in_flight`
    // places are taken. Async work polled here may use the runtime's
    // timers and I/O.
    let in_flight = in_flight_places(service);
    let stopping = Arc::new(AtomicBool::new(false));
    let flushing = Arc::clone(&shared);
    let _ = ready.send(Draining {
        stopping: Arc::clone(&stopping),
        in_flight: Arc::clone(&in_flight),
        places: u32::try_from(limits.in_flight()).unwrap_or(u32::MAX),
        output: queue.drain(),
        flush: Box::new(move || flushing.flush()),
    });
    lines.stopping = stopping;
    let read = runtime.block_on(serve_lines(
        service,
        &mut lines,
        sink(&shared, &queue),
        &queue,
        in_flight,
    ));
    // The writer ends once every sender of the queue is gone: ours and
    // those of requests still in flight, which finish first.
    drop(queue);
    let flushed = shared.flush();
    read.and(flushed).and(writer.finish_writing())
}

/// Lines read with blocking reads; answers written in place, before the
/// next line is read.
struct BlockingLines<R: Read, W: Write> {
    reader: BlockingLineReader<R>,
    shared: Arc<Shared<W>>,
    /// Set at shutdown: what is read from then on is not served.
    stopping: Arc<AtomicBool>,
}

impl<R: Read, W: Write> Lines for BlockingLines<R, W> {
    async fn next_line(&mut self) -> io::Result<Line<'_>> {
        // About to wait for input: what was answered goes out first.
        if !self.reader.has_line() {
            self.shared.flush()?;
        }
        let line = self.reader.next();
        if self.stopping.load(Ordering::Relaxed) {
            self.shared.flush()?;
            return Ok(Line::Eof);
        }
        line
    }

    async fn reply(&mut self, message: String, reserved: Option<Reservation>) -> io::Result<bool> {
        // Written in place, blocking while the client is not reading: the
        // reservation goes once the text has.
        let written = self.shared.write(&message).map(|()| true);
        drop((message, reserved));
        written
    }
}
