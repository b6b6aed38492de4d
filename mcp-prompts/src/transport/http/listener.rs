//! The ready listener: accepts connections and serves each with hyper,
//! guarded against clients that hold connections without using them.
//!
//! - A connection must send a request's headers within the header timeout,
//!   and, once idle between requests, its next request's within the same
//!   time; otherwise it is closed.
//! - At most `max_connections` are open at once. A new connection beyond
//!   that, or one the process has no file descriptor left for, first ends
//!   the oldest connection that has not sent a whole request yet (the
//!   cheapest to lose: no answer is pending on it); if every connection is
//!   busy, the new one waits in the listener's queue.

use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
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
    /// Set once the connection has sent a whole request.
    used: Arc<AtomicBool>,
    task: JoinHandle<()>,
}

impl Connections {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Open>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn len(&self) -> usize {
        self.lock().len()
    }

    /// Ends the oldest connection that has not sent a whole request; false
    /// if every connection has.
    fn end_oldest_unused(&self) -> bool {
        let mut open = self.lock();
        let oldest = open
            .iter()
            .find(|(_, c)| !c.used.load(Ordering::Relaxed))
            .map(|(&id, _)| id);
        match oldest.and_then(|id| open.remove(&id)) {
            Some(connection) => {
                connection.task.abort();
                true
            }
            None => false,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes; then stops
/// accepting, lets each connection finish the request it is serving, and
/// returns once all have closed.
pub(crate) async fn serve<F>(
    listener: TcpListener,
    app: Router,
    max_connections: usize,
    header_timeout: Duration,
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
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(err) if is_out_of_descriptors(&err) => {
                // Make room, then try again: the ended connection's socket
                // closes once its task is dropped.
                if !connections.end_oldest_unused() {
                    tokio::time::sleep(BACKOFF).await;
                }
                tokio::task::yield_now().await;
                continue;
            }
            // A connection that failed before it was accepted (reset by the
            // peer): nothing to serve.
            Err(_) => continue,
        };
        if connections.len() >= max_connections && !connections.end_oldest_unused() {
            // Every connection is serving a request: this one is refused.
            drop(stream);
            continue;
        }
        let used = Arc::new(AtomicBool::new(false));
        let id = next_id;
        next_id += 1;
        // Held while spawning, so the connection cannot forget itself
        // before it is recorded.
        let mut open = connections.lock();
        let task = tokio::spawn(serve_connection(
            stream,
            app.clone(),
            Arc::clone(&used),
            header_timeout,
            stopped.clone(),
            Arc::clone(&connections),
            id,
        ));
        open.insert(id, Open { used, task });
    }
    stop.send_replace(true);
    // Connections finish their requests and close; wait for them.
    let tasks: Vec<JoinHandle<()>> = std::mem::take(&mut *connections.lock())
        .into_values()
        .map(|c| c.task)
        .collect();
    for task in tasks {
        let _ = task.await;
    }
    Ok(())
}

fn is_out_of_descriptors(err: &io::Error) -> bool {
    // EMFILE (24) and ENFILE (23) on Unix; there is no portable kind for them.
    matches!(err.raw_os_error(), Some(23 | 24))
}

async fn serve_connection(
    stream: TcpStream,
    app: Router,
    used: Arc<AtomicBool>,
    header_timeout: Duration,
    mut stopped: watch::Receiver<bool>,
    connections: Arc<Connections>,
    id: u64,
) {
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        used.store(true, Ordering::Relaxed);
        app.clone().call(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
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
