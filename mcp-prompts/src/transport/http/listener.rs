//! The ready listener: accepts connections and serves each with hyper,
//! guarded against clients that hold connections without using them.
//!
//! - A connection must send a request's headers within the header timeout,
//!   and, once idle between requests, its next request's within the same
//!   time; otherwise it is closed.
//! - At most `max_connections` are open at once, long-lived requests
//!   included. A new connection beyond that, or one the process has no
//!   file descriptor left for, makes room by ending, oldest first: a
//!   connection that has not sent a whole request yet (no answer is
//!   pending on it); else one idle between requests; else one whose
//!   response is an event stream still open (a `subscriptions/listen`, a
//!   request waiting for its client's answer, a session's `GET` stream:
//!   its client reconnects). If every connection is working on a request,
//!   the new one is closed at once.

use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use super::header_timer::HeaderTimer;
use super::stall::StallGuard;
use crate::sync::lock;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use axum::response::Response;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tower_service::Service;

/// How long to wait before accepting again when the process has no file
/// descriptor left and no connection could be ended for one.
const BACKOFF: Duration = Duration::from_millis(50);

/// The open connections, oldest first.
#[derive(Default)]
struct Connections {
    open: Mutex<BTreeMap<u64, Open>>,
}

struct Open {
    /// What the connection is doing: one of the `Use` values.
    state: Arc<AtomicU8>,
    task: JoinHandle<()>,
}

/// What a connection is doing, in the order connections are ended to make
/// room.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Use {
    /// It has not sent a whole request yet.
    Unused,
    /// It is between requests.
    Idle,
    /// Its response is an event stream still open.
    Streaming,
    /// It is working on a request.
    Busy,
}

fn set(state: &AtomicU8, to: Use) {
    state.store(to as u8, Ordering::Relaxed);
}

impl Connections {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Open>> {
        lock(&self.open)
    }

    fn len(&self) -> usize {
        self.lock().len()
    }

    /// Ends a connection to make room for a new one: the oldest unused,
    /// else the oldest idle, else the oldest streaming; false if every
    /// connection is working on a request.
    fn make_room(&self) -> bool {
        let mut open = self.lock();
        let victim = [Use::Unused, Use::Idle, Use::Streaming]
            .into_iter()
            .find_map(|wanted| {
                open.iter()
                    .find(|(_, c)| c.state.load(Ordering::Relaxed) == wanted as u8)
                    .map(|(&id, _)| id)
            });
        match victim.and_then(|id| open.remove(&id)) {
            Some(connection) => {
                connection.task.abort();
                true
            }
            None => false,
        }
    }
}

/// How long a connection may keep the server waiting.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timeouts {
    /// For a request's headers, from connecting or from the last answer.
    pub(super) header: Duration,
    /// For the client to take any of an answer the server is writing.
    pub(super) write: Duration,
    /// For the requests in flight at shutdown to be answered.
    pub(super) drain: Duration,
}

/// Serves `app` on `listener` until `shutdown` completes; then stops
/// accepting, lets each connection finish the request it is serving, and
/// returns once all have closed.
pub(crate) async fn serve<F>(
    listener: TcpListener,
    app: Router,
    max_connections: usize,
    timeouts: Timeouts,
    shutdown: F,
) -> io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    let connections = Arc::new(Connections::default());
    let (stop, stopped) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    let mut next_id = 0u64;
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(err) if is_out_of_descriptors(&err) => {
                // Make room, then try again: the ended connection's socket
                // closes once its task is dropped.
                if !connections.make_room() {
                    tokio::time::sleep(BACKOFF).await;
                }
                tokio::task::yield_now().await;
                continue;
            }
            // A connection that failed before it was accepted (reset by the
            // peer): nothing to serve.
            Err(_) => continue,
        };
        if connections.len() >= max_connections && !connections.make_room() {
            // Every connection is serving a request: this one is refused.
            drop(stream);
            continue;
        }
        let state = Arc::new(AtomicU8::new(Use::Unused as u8));
        let id = next_id;
        next_id += 1;
        // Held while spawning, so the connection cannot forget itself
        // before it is recorded.
        let mut open = connections.lock();
        let task = tokio::spawn(serve_connection(
            (stream, peer),
            app.clone(),
            Arc::clone(&state),
            timeouts,
            stopped.clone(),
            Arc::clone(&connections),
            id,
        ));
        open.insert(id, Open { state, task });
    }
    // Closed now, not when the connections are done: the kernel would
    // otherwise still take connections no one accepts.
    drop(listener);
    stop.send_replace(true);
    // Connections finish their requests and close; wait for them, for as
    // long as the drain allows, then close those left.
    let tasks: Vec<JoinHandle<()>> = std::mem::take(&mut *connections.lock())
        .into_values()
        .map(|c| c.task)
        .collect();
    let aborts: Vec<_> = tasks.iter().map(JoinHandle::abort_handle).collect();
    let finished = futures_util::future::join_all(tasks);
    if tokio::time::timeout(timeouts.drain, finished)
        .await
        .is_err()
    {
        tracing::warn!(
            timeout = ?timeouts.drain,
            "requests still in flight at the end of the drain: their connections are closed"
        );
        for abort in aborts {
            abort.abort();
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
/// The response, with the connection marked as streaming while its body
/// is an event stream still being sent, and idle once it is sent.
fn watched(response: Response, state: Arc<AtomicU8>) -> Response {
    let streaming = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    if !streaming {
        set(&state, Use::Idle);
        return response;
    }
    set(&state, Use::Streaming);
    response.map(|body| Body::new(Streamed { body, state }))
}

/// An event stream's body; the connection is idle again once it ends.
struct Streamed {
    body: Body,
    state: Arc<AtomicU8>,
}

impl Drop for Streamed {
    fn drop(&mut self) {
        set(&self.state, Use::Idle);
    }
}

impl hyper::body::Body for Streamed {
    type Data = <Body as hyper::body::Body>::Data;
    type Error = <Body as hyper::body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Whether `accept` failed for want of a file descriptor (the process's or
/// the system's); std has no error kind for it, so the codes are the
/// platform's.
fn is_out_of_descriptors(err: &io::Error) -> bool {
    #[cfg(unix)]
    return matches!(err.raw_os_error(), Some(libc::EMFILE | libc::ENFILE));
    // WSAEMFILE: Winsock's "too many open sockets".
    #[cfg(windows)]
    return err.raw_os_error() == Some(10024);
    #[cfg(not(any(unix, windows)))]
    return false;
}

async fn serve_connection(
    (stream, peer): (TcpStream, SocketAddr),
    app: Router,
    state: Arc<AtomicU8>,
    timeouts: Timeouts,
    mut stopped: watch::Receiver<bool>,
    connections: Arc<Connections>,
    id: u64,
) {
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        set(&state, Use::Busy);
        // Where the request came from, as axum's own server says it.
        request.extensions_mut().insert(ConnectInfo(peer));
        let state = Arc::clone(&state);
        let response = app.clone().call(request);
        async move { response.await.map(|response| watched(response, state)) }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(HeaderTimer::default())
        .header_read_timeout(timeouts.header);
    let stream = StallGuard::new(stream, timeouts.write);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    let mut connection = std::pin::pin!(connection);
    let stop = async move {
        // The guard `wait_for` returns must not live across an await.
        let _ = stopped.wait_for(|stop| *stop).await.map(drop);
    };
    tokio::select! {
        _ = connection.as_mut() => {}
        () = stop => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
    connections.lock().remove(&id);
}
