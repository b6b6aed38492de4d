//! Kept HTTP sessions: created by `initialize`, found by `Mcp-Session-Id`,
//! bounded in number and ended when idle, by `DELETE`, or at shutdown.
//!
//! The policy when the store is full: expired sessions go first; then the
//! least recently used session, but only if it has been idle for at least
//! the eviction grace; otherwise the new session is refused. So a flood of
//! `initialize` requests can never end a session used within the grace.
//! Sessions are kept in order of use, so every step finds its victim
//! without scanning the store.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lru::LruCache;
use tokio::sync::{mpsc, watch};

use crate::server::{Service, Session};
use crate::sync::lock;

/// Server-to-client messages waiting for a `GET` stream; beyond this they
/// are dropped (they are notifications, best effort by nature).
const STREAM_QUEUE: usize = 256;

pub(crate) struct HttpSession {
    pub(super) session: Session,
    /// The receiving end of the session's own messages, taken by the `GET`
    /// stream while it is open.
    stream: Mutex<Option<mpsc::Receiver<String>>>,
    /// Set when the session ends, which ends its `GET` stream.
    pub(super) ended: watch::Sender<bool>,
    /// The principal of the caller that opened it (empty: none proven);
    /// only that caller may use it.
    pub(super) owner: String,
}

impl HttpSession {
    /// A session of `service`, not yet in any store: it is kept only once
    /// its `initialize` succeeds.
    pub(crate) fn new(service: &Service, owner: &str) -> Arc<Self> {
        let (tx, rx) = mpsc::channel(STREAM_QUEUE);
        Arc::new(Self {
            session: service.session(Some(tx)),
            stream: Mutex::new(Some(rx)),
            ended: watch::Sender::new(false),
            owner: owner.to_owned(),
        })
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
        self.session.end();
    }

    /// Whether a request of the session is still being worked on (or waits
    /// for the client's answer to a question): such a session is in use.
    fn is_busy(&self) -> bool {
        self.session.is_busy()
    }
}

/// A kept session and when it was last used.
struct Kept {
    session: Arc<HttpSession>,
    seen: Instant,
}

/// Why a new session was not kept: every live session was used within the
/// eviction grace. The client may try again after `retry_after`.
#[derive(Debug)]
pub(crate) struct Full {
    pub(super) retry_after: Duration,
}

pub(crate) struct SessionStore {
    /// Least recently used first.
    sessions: Mutex<LruCache<Box<str>, Kept>>,
    max: usize,
    idle: Duration,
    grace: Duration,
}

impl SessionStore {
    pub(crate) fn new(max: usize, idle: Duration, grace: Duration) -> Self {
        Self {
            sessions: Mutex::new(LruCache::unbounded()),
            max,
            idle,
            grace,
        }
    }

    /// Keeps `session` under `id`, making room by the policy above.
    pub(crate) fn insert(&self, id: &str, session: Arc<HttpSession>) -> Result<(), Full> {
        let now = Instant::now();
        let mut sessions = lock(&self.sessions);
        // Expired sessions, oldest first. Each is removed once, so this
        // costs nothing on average. A busy one is in use: it counts as
        // used now.
        while let Some((id, live)) = sessions.peek_lru() {
            if now.saturating_duration_since(live.seen) < self.idle {
                break;
            }
            if live.session.is_busy() {
                let id = id.clone();
                touch(&mut sessions, &id, now);
                continue;
            }
            if let Some((_, expired)) = sessions.pop_lru() {
                expired.session.end();
            }
        }
        if sessions.len() >= self.max {
            // Busy sessions are in use, however old their last message:
            // each is skipped (counted as used now) once.
            for _ in 0..sessions.len() {
                let busy = match sessions.peek_lru() {
                    Some((id, live)) if live.session.is_busy() => id.clone(),
                    _ => break,
                };
                touch(&mut sessions, &busy, now);
            }
            // Every session is busy: none can give way.
            if sessions
                .peek_lru()
                .is_some_and(|(_, live)| live.session.is_busy())
            {
                return Err(Full {
                    retry_after: self.grace.max(Duration::from_secs(1)),
                });
            }
            if let Some((_, oldest)) = sessions.peek_lru() {
                let idle = now.saturating_duration_since(oldest.seen);
                if idle < self.grace {
                    return Err(Full {
                        retry_after: self.grace.saturating_sub(idle),
                    });
                }
            }
            if let Some((_, evicted)) = sessions.pop_lru() {
                evicted.session.end();
            }
        }
        sessions.push(id.into(), Kept { session, seen: now });
        Ok(())
    }

    /// The live session `id`, marked as just used; `None` if unknown or
    /// expired (an expired one is ended now).
    pub(crate) fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let now = Instant::now();
        let mut sessions = lock(&self.sessions);
        let live = sessions.get_mut(id)?;
        if now.saturating_duration_since(live.seen) >= self.idle && !live.session.is_busy() {
            if let Some(expired) = sessions.pop(id) {
                expired.session.end();
            }
            return None;
        }
        live.seen = now;
        Some(Arc::clone(&live.session))
    }

    /// Ends session `id`; false if there was none.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let removed = lock(&self.sessions).pop(id);
        removed.map(|live| live.session.end()).is_some()
    }

    /// Ends every session (at shutdown, so that open streams close).
    pub(crate) fn end_all(&self) {
        let mut sessions = lock(&self.sessions);
        while let Some((_, live)) = sessions.pop_lru() {
            live.session.end();
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.sessions).len()
    }
}

/// Marks session `id` as used at `now` (the most recently used).
fn touch(sessions: &mut LruCache<Box<str>, Kept>, id: &str, now: Instant) {
    if let Some(live) = sessions.get_mut(id) {
        live.seen = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::Server;

    fn service() -> Service {
        Server::new("t", "1")
            .prompts(std::iter::empty::<crate::catalog::AnyPrompt>())
            .build()
            .unwrap()
    }

    const MINUTE: Duration = Duration::from_secs(60);

    #[test]
    fn the_least_recently_used_session_past_the_grace_makes_room() {
        let service = service();
        let store = SessionStore::new(2, MINUTE, Duration::from_millis(1));
        let a = HttpSession::new(&service, "");
        store.insert("a", Arc::clone(&a)).unwrap();
        store.insert("b", HttpSession::new(&service, "")).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert!(store.get("a").is_some(), "using `a` makes `b` the oldest");
        store.insert("c", HttpSession::new(&service, "")).unwrap();
        assert_eq!(store.len(), 2);
        assert!(store.get("b").is_none(), "the least recently used ends");
        assert!(store.get("a").is_some());
        assert!(store.remove("c"));
        assert!(!store.remove("c"));
        assert!(!*a.ended.borrow());
        store.end_all();
        assert!(*a.ended.borrow());
    }

    #[test]
    fn sessions_used_within_the_grace_are_never_evicted() {
        let service = service();
        let store = SessionStore::new(1, MINUTE, MINUTE);
        store
            .insert("kept", HttpSession::new(&service, ""))
            .unwrap();
        let refused = store
            .insert("new", HttpSession::new(&service, ""))
            .unwrap_err();
        assert!(refused.retry_after > Duration::from_secs(59));
        assert!(store.get("kept").is_some());
        assert!(store.get("new").is_none());
    }

    #[test]
    fn expired_sessions_end_and_make_room() {
        let service = service();
        let store = SessionStore::new(1, Duration::from_millis(1), MINUTE);
        let old = HttpSession::new(&service, "");
        store.insert("x", Arc::clone(&old)).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        store.insert("y", HttpSession::new(&service, "")).unwrap();
        assert!(*old.ended.borrow(), "expired first, whatever the grace");
        std::thread::sleep(Duration::from_millis(5));
        assert!(store.get("y").is_none());
    }
}
