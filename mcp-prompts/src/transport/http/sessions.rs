//! Live HTTP sessions: created by `initialize`, found by `Mcp-Session-Id`,
//! bounded in number and ended when idle, by `DELETE`, or at shutdown.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};

use crate::server::{Service, Session};

/// Server-to-client messages waiting for a `GET` stream; beyond this they
/// are dropped (they are notifications, best effort by nature).
const STREAM_QUEUE: usize = 256;

pub(crate) struct HttpSession {
    pub(crate) session: Session,
    last_seen: Mutex<Instant>,
    /// The receiving end of the session's own messages, taken by the `GET`
    /// stream while it is open.
    stream: Mutex<Option<mpsc::Receiver<String>>>,
    /// Set when the session ends, which ends its `GET` stream.
    pub(crate) ended: watch::Sender<bool>,
}

impl HttpSession {
    /// A session of `service`, not yet in any store: it is kept only once
    /// its `initialize` succeeds.
    pub(crate) fn new(service: &Service) -> Arc<Self> {
        let (tx, rx) = mpsc::channel(STREAM_QUEUE);
        Arc::new(Self {
            session: service.session(Some(tx)),
            last_seen: Mutex::new(Instant::now()),
            stream: Mutex::new(Some(rx)),
            ended: watch::Sender::new(false),
        })
    }

    fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    fn idle_for(&self, now: Instant) -> Duration {
        now.saturating_duration_since(*lock(&self.last_seen))
    }

    /// Takes the session's message stream; `None` if a `GET` holds it.
    pub(crate) fn take_stream(&self) -> Option<mpsc::Receiver<String>> {
        lock(&self.stream).take()
    }

    /// Gives the stream back when its `GET` ends.
    pub(crate) fn return_stream(&self, rx: mpsc::Receiver<String>) {
        *lock(&self.stream) = Some(rx);
    }

    fn end(&self) {
        self.ended.send_replace(true);
    }
}

pub(crate) struct SessionStore {
    sessions: Mutex<HashMap<Box<str>, Arc<HttpSession>>>,
    max: usize,
    idle: Duration,
}

impl SessionStore {
    pub(crate) fn new(max: usize, idle: Duration) -> Self {
        Self {
            sessions: Mutex::new(HashMap::new()),
            max,
            idle,
        }
    }

    /// Keeps `session` under `id`. When the store is full, expired
    /// sessions are dropped first, then the longest idle one if need be;
    /// below that, adding costs no scan.
    pub(crate) fn insert(&self, id: &str, session: Arc<HttpSession>) {
        let now = Instant::now();
        let mut sessions = lock(&self.sessions);
        if sessions.len() >= self.max {
            sessions.retain(|_, s| {
                let live = s.idle_for(now) < self.idle;
                if !live {
                    s.end();
                }
                live
            });
        }
        if sessions.len() >= self.max {
            let oldest = sessions
                .iter()
                .max_by_key(|(_, s)| s.idle_for(now))
                .map(|(k, _)| k.clone());
            if let Some(removed) = oldest.and_then(|k| sessions.remove(&k)) {
                removed.end();
            }
        }
        sessions.insert(id.into(), session);
    }

    /// The live session `id`, marked as just used; `None` if unknown or
    /// expired (an expired one is ended now).
    pub(crate) fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let mut sessions = lock(&self.sessions);
        let session = sessions.get(id)?;
        if session.idle_for(Instant::now()) >= self.idle {
            if let Some(expired) = sessions.remove(id) {
                expired.end();
            }
            return None;
        }
        session.touch();
        Some(Arc::clone(session))
    }

    /// Ends session `id`; false if there was none.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let removed = lock(&self.sessions).remove(id);
        removed.map(|s| s.end()).is_some()
    }

    /// Ends every session (at shutdown, so that open streams close).
    pub(crate) fn end_all(&self) {
        for (_, session) in lock(&self.sessions).drain() {
            session.end();
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.sessions).len()
    }
}

/// A poisoned lock only means another request panicked while holding it;
/// the data (timestamps, a map) is still sound.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Server;

    fn service() -> Service {
        Server::new("t", "1").prompts([]).build().unwrap()
    }

    #[test]
    fn bounded_and_expiring() {
        let service = service();
        let store = SessionStore::new(2, Duration::from_secs(60));
        let a = HttpSession::new(&service);
        store.insert("a", Arc::clone(&a));
        store.insert("b", HttpSession::new(&service));
        std::thread::sleep(Duration::from_millis(5));
        assert!(store.get("b").is_some());
        store.insert("c", HttpSession::new(&service));
        assert_eq!(store.len(), 2);
        assert!(store.get("a").is_none(), "the longest idle session ends");
        assert!(*a.ended.borrow());
        assert!(store.remove("b"));
        assert!(!store.remove("b"));

        let short = SessionStore::new(10, Duration::from_millis(1));
        short.insert("x", HttpSession::new(&service));
        std::thread::sleep(Duration::from_millis(5));
        assert!(short.get("x").is_none());
    }
}
