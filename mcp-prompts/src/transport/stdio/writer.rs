//! Stdout, shared by the serving thread, which writes its answers in
//! place, and a writer thread, which writes what other threads queue
//! (answers of async work that waited, messages sent from elsewhere).
//!
//! The writer thread is started by the first message queued: most stdio
//! sessions never queue one (sync prompts, and async ones that never
//! wait, are answered in place), and a thread costs start-up time and
//! memory a server that starts on every launch of its host should not pay
//! for nothing.

use std::io::{self, BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle, ThreadId};

use crate::sync::lock;
use crate::transport::output::{WakeWriter, Written};

/// The output both threads write to.
pub(super) struct Shared<W: Write> {
    out: Mutex<BufWriter<W>>,
    /// The thread that reads and handles messages: what it sends is
    /// written in place, in order.
    serving: ThreadId,
}

impl<W: Write> Shared<W> {
    /// Stdout for the calling thread, the serving one, to write in place.
    pub(super) fn new(writer: W) -> Self {
        Self {
            out: Mutex::new(BufWriter::with_capacity(64 * 1024, writer)),
            serving: thread::current().id(),
        }
    }

    /// Whether the calling thread is the serving one.
    pub(super) fn is_serving(&self) -> bool {
        thread::current().id() == self.serving
    }

    fn lock(&self) -> MutexGuard<'_, BufWriter<W>> {
        // A panic while writing leaves at worst a partial buffer.
        lock(&self.out)
    }

    pub(super) fn write(&self, message: &str) -> io::Result<()> {
        write_line(&mut self.lock(), message)
    }

    pub(super) fn flush(&self) -> io::Result<()> {
        self.lock().flush()
    }
}

fn write_line<W: Write>(out: &mut BufWriter<W>, message: &str) -> io::Result<()> {
    out.write_all(message.as_bytes())?;
    out.write_all(b"\n")
}

/// Writes what other threads queued, a batch at a time, until every
/// sender of the queue is gone.
fn write_queued<W: Write>(shared: &Shared<W>, mut written: Written) -> io::Result<()> {
    // Each message's permit and reservation go once it is written.
    while let Some((message, _permit, _reserved)) = written.blocking_recv() {
        let mut out = shared.lock();
        write_line(&mut out, &message)?;
        write_ready(&mut out, &mut written)?;
    }
    Ok(())
}

/// Writes the messages queued now, and flushes.
fn write_ready<W: Write>(out: &mut BufWriter<W>, written: &mut Written) -> io::Result<()> {
    while let Ok((message, _permit, _reserved)) = written.try_recv() {
        write_line(out, &message)?;
    }
    out.flush()
}

/// The writer thread, started when the first message is queued.
pub(super) struct QueueWriter<W: Write> {
    /// Set once the thread is started: a queued message then costs one
    /// load.
    started: AtomicBool,
    state: Mutex<State<W>>,
}

enum State<W: Write> {
    /// Nothing queued yet.
    Waiting(Arc<Shared<W>>, Written),
    Started(JoinHandle<io::Result<()>>),
    /// No thread could be started: whoever queues a message writes what
    /// is queued, blocking as the thread would have.
    Inline(Arc<Shared<W>>, Written),
    Finished,
}

impl<W: Write + Send + 'static> QueueWriter<W> {
    /// A writer of `written` to `shared`, not started yet.
    pub(super) fn new(shared: Arc<Shared<W>>, written: Written) -> Arc<Self> {
        Arc::new(Self {
            started: AtomicBool::new(false),
            state: Mutex::new(State::Waiting(shared, written)),
        })
    }

    /// What the queue calls as each message is queued.
    pub(super) fn waker(self: &Arc<Self>) -> WakeWriter {
        let writer = Arc::clone(self);
        Arc::new(move || writer.start())
    }

    fn start(&self) {
        if self.started.load(Ordering::Acquire) {
            return;
        }
        let mut state = lock(&self.state);
        *state = match std::mem::replace(&mut *state, State::Finished) {
            State::Waiting(shared, written) => {
                // The receiver goes to the thread through a slot it can be
                // taken back from if the thread cannot start.
                let slot = Arc::new(Mutex::new(Some(written)));
                let (writing, taken) = (Arc::clone(&shared), Arc::clone(&slot));
                let spawned = thread::Builder::new()
                    .name("mcp-prompts-stdout".into())
                    .spawn(move || match lock(&taken).take() {
                        Some(written) => write_queued(&writing, written),
                        None => Ok(()),
                    });
                match spawned {
                    Ok(thread) => {
                        self.started.store(true, Ordering::Release);
                        State::Started(thread)
                    }
                    // The closure never ran: the receiver is in the slot.
                    Err(err) => match lock(&slot).take() {
                        Some(mut written) => {
                            tracing::error!(%err, "no thread to write queued answers with: written as they come");
                            Self::write_inline(&shared, &mut written);
                            State::Inline(shared, written)
                        }
                        None => State::Finished,
                    },
                }
            }
            State::Inline(shared, mut written) => {
                Self::write_inline(&shared, &mut written);
                State::Inline(shared, written)
            }
            other => other,
        };
    }

    fn write_inline(shared: &Shared<W>, written: &mut Written) {
        if let Err(err) = write_ready(&mut shared.lock(), written) {
            tracing::warn!(%err, "a queued answer could not be written");
        }
    }

    /// Once every sender of the queue is gone: waits for the thread to
    /// write what was queued, or writes it here if it never started.
    pub(super) fn finish_writing(&self) -> io::Result<()> {
        let state = std::mem::replace(&mut *lock(&self.state), State::Finished);
        match state {
            State::Waiting(shared, written) | State::Inline(shared, written) => {
                write_queued(&shared, written)
            }
            State::Started(thread) => thread
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the stdout writer panicked"))),
            State::Finished => Ok(()),
        }
    }
}
