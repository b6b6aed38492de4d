//! The narrow handle through which requests talk to their client on their
//! own: the session's log level, its stream of server-sent messages, and
//! requests to the client (`elicitation/create`) with their answers.
//! Request contexts hold this, never the server's or the session's state.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::Duration;

use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{Notify, Semaphore, mpsc, oneshot};

use super::{Backchannel, Cancel};
use crate::error::Error;
use crate::protocol::LogLevel;
use crate::protocol::to_client::ToClient;
use crate::sync::lock;

/// Where a session's server-sent messages go: the transport's, best
/// effort (a message it cannot take now is dropped); whether it took it.
pub(crate) type Sink = Box<dyn Fn(ToClient) -> bool + Send + Sync>;

/// A sink that queues on `channel` as JSON-RPC text, dropping what does
/// not fit.
pub(crate) fn channel_sink(channel: mpsc::Sender<String>) -> Sink {
    Box::new(move |message| channel.try_send(message.to_json()).is_ok())
}

/// A client's answer: its `result`, or its error's message.
pub(crate) type ClientReply = Result<Value, String>;

/// What a connection's requests may hold while they wait for the client.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WaitBounds {
    /// The most requests waiting for answers at once.
    max_waiting: usize,
    /// How long a question waits for its answer.
    question_timeout: Duration,
}

impl WaitBounds {
    /// At most `max_waiting` requests waiting for answers, each at most
    /// `question_timeout`.
    pub(crate) fn new(max_waiting: usize, question_timeout: Duration) -> Self {
        Self {
            max_waiting,
            question_timeout,
        }
    }
}

/// Cheap to clone; every clone is the same session's.
#[derive(Clone)]
pub(crate) struct Outbound(Arc<Shared>);

struct Shared {
    log_level: AtomicU8,
    sink: Option<Sink>,
    /// Whether the client declared it can show a form (`elicitation`).
    can_elicit: AtomicBool,
    /// Set when the connection ends: no answer can come any more.
    closed: AtomicBool,
    /// Wakes what waits for the end ([`Outbound::closed`]).
    ending: Notify,
    next_id: AtomicU64,
    /// Requests sent to the client and not answered yet, by id as sent.
    waiting: Mutex<HashMap<Box<str>, oneshot::Sender<ClientReply>>>,
    /// The client's requests still being worked on (async ones), by id as
    /// sent, so that `notifications/cancelled` can stop them.
    /// Keyed by the id the entry's [`InFlight`] shares.
    in_flight: Mutex<HashMap<Arc<str>, Arc<Cancel>>>,
    /// The transport's places for requests in flight: one waiting for the
    /// client gives its place back meanwhile, or requests waiting for
    /// answers could fill every place while the answers wait to be read.
    places: OnceLock<Arc<Semaphore>>,
    bounds: WaitBounds,
}

impl Outbound {
    /// `sink` takes messages not tied to a request's response; `None`
    /// drops them (a session with nowhere to send them). `bounds` limit
    /// what the connection's requests may hold while they wait.
    pub(crate) fn new(sink: Option<Sink>, bounds: WaitBounds) -> Self {
        Self(Arc::new(Shared {
            log_level: AtomicU8::new(LogLevel::Info as u8),
            sink,
            can_elicit: AtomicBool::new(false),
            closed: AtomicBool::new(false),
            ending: Notify::new(),
            next_id: AtomicU64::new(1),
            waiting: Mutex::new(HashMap::new()),
            in_flight: Mutex::new(HashMap::new()),
            places: OnceLock::new(),
            bounds,
        }))
    }

    /// The least severe level the client wants to hear.
    pub(crate) fn log_level(&self) -> LogLevel {
        LogLevel::from_index(self.0.log_level.load(Ordering::Relaxed))
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        self.0.log_level.store(level as u8, Ordering::Relaxed);
    }

    /// Whether the session's client can answer a form `elicitation/create`.
    pub(crate) fn can_elicit(&self) -> bool {
        self.0.can_elicit.load(Ordering::Relaxed)
    }

    pub(crate) fn set_can_elicit(&self, can: bool) {
        self.0.can_elicit.store(can, Ordering::Relaxed);
    }

    /// Sends a server-initiated message, best effort; whether it was taken.
    pub(crate) fn notify(&self, message: ToClient) -> bool {
        self.0.sink.as_ref().is_some_and(|sink| sink(message))
    }

    /// Registers request `id` as in flight until the value returned is
    /// dropped; its cancellation fires if the client cancels it. The entry
    /// and its removal are one value, so a request dropped at any point
    /// (finished, cancelled, never polled, its connection gone) is
    /// forgotten.
    pub(crate) fn track(&self, id: &str) -> InFlight {
        let cancel = Arc::new(Cancel::default());
        let key: Arc<str> = id.into();
        lock(&self.0.in_flight).insert(Arc::clone(&key), Arc::clone(&cancel));
        InFlight {
            outbound: self.clone(),
            key,
            cancel,
        }
    }

    /// Whether any request of the session is in flight, or waits for the
    /// client's answer: the session is in use, however long ago its last
    /// message came.
    pub(crate) fn is_busy(&self) -> bool {
        !lock(&self.0.in_flight).is_empty() || !self.waiting().is_empty()
    }

    /// The cancellation of request `id`, if it is in flight.
    pub(crate) fn cancellation(&self, id: &RawValue) -> Option<Arc<Cancel>> {
        lock(&self.0.in_flight).get(id.get()).cloned()
    }

    /// Cancels request `id`; an unknown or finished one is ignored, as the
    /// specification allows.
    pub(crate) fn cancel(&self, id: &str) {
        if let Some(cancel) = lock(&self.0.in_flight).get(id) {
            cancel.fire();
        }
    }

    /// A handle that does not keep the session alive.
    pub(crate) fn downgrade(&self) -> WeakOutbound {
        WeakOutbound(Arc::downgrade(&self.0))
    }

    /// The places for requests in flight that a request waiting for the
    /// client lends back while it waits.
    pub(crate) fn lend_in_flight(&self, places: Arc<Semaphore>) {
        let _ = self.0.places.set(places);
    }

    /// Asks the client a question (`elicitation/create` with `params`) and
    /// waits for its answer: on `route`
    /// (the response stream of the request it belongs to) if there is one,
    /// else on the session's stream. `None` if the request could not be
    /// sent (no stream can carry it now, or as many requests as the
    /// connection may keep already wait for answers), so nobody will
    /// answer. A question that waits past the timeout is withdrawn (the
    /// client is sent `notifications/cancelled`) and answered with a
    /// decline.
    pub(crate) async fn elicit(
        &self,
        params: Value,
        route: Option<&Backchannel>,
    ) -> Result<Option<Value>, Error> {
        let n = self.0.next_id.fetch_add(1, Ordering::Relaxed);
        let id = format!("\"mcp-prompts-{n}\"");
        let (tx, rx) = oneshot::channel();
        {
            let mut waiting = self.waiting();
            if waiting.len() >= self.0.bounds.max_waiting {
                tracing::debug!(
                    limit = self.0.bounds.max_waiting,
                    "not asking the client: as many requests as allowed wait for its answers"
                );
                return Ok(None);
            }
            waiting.insert(id.clone().into(), tx);
        }
        // Forgets the request if the prompt stops waiting (cancelled).
        let _forget = Forget {
            outbound: self,
            id: &id,
        };
        // Checked after the request is registered, so that a connection
        // ending now cannot leave it waiting.
        if self.0.closed.load(Ordering::Acquire) {
            return Err(ended());
        }
        let message = ToClient::Elicit {
            id: raw_id(&id),
            params,
        };
        if !self.send(message, route).await {
            return Ok(None);
        }
        let answer = {
            let _lent = self
                .0
                .places
                .get()
                .map(|places| LentPlace::new(Arc::clone(places)));
            match tokio::time::timeout(self.0.bounds.question_timeout, rx).await {
                Ok(answer) => answer.map_err(|_| ended())?,
                Err(_) => {
                    tracing::debug!(id, "the client did not answer in time: withdrawn");
                    let cancelled = ToClient::Cancelled {
                        request: raw_id(&id),
                        reason: format!(
                            "no answer within {} s",
                            self.0.bounds.question_timeout.as_secs()
                        ),
                    };
                    self.send(cancelled, route).await;
                    return Ok(Some(serde_json::json!({ "action": "decline" })));
                }
            }
        };
        match answer {
            Ok(result) => Ok(Some(result)),
            Err(message) => Err(Error::internal(format!(
                "the client answered `elicitation/create` with an error: {}",
                crate::error::brief(&message)
            ))),
        }
    }

    /// Sends `message` on `route` (waiting for room) or the session's
    /// stream; whether it was taken.
    async fn send(&self, message: ToClient, route: Option<&Backchannel>) -> bool {
        match route {
            Some(route) => route.send(message).await,
            None => self.notify(message),
        }
    }

    /// Lends the place of a request in flight back to the transport until
    /// the value returned is dropped: for a request that waits on the
    /// client (a `subscriptions/listen`) and should not hold a place
    /// meanwhile. `None` where the transport bounds no places.
    pub(crate) fn lend_place(&self) -> Option<LentPlace> {
        self.0
            .places
            .get()
            .map(|places| LentPlace::new(Arc::clone(places)))
    }

    /// Hands a client's answer to the request waiting for it (`id` as
    /// JSON); an answer to nothing we asked is ignored.
    pub(crate) fn resolve(&self, id: &str, answer: ClientReply) {
        if let Some(waiter) = self.waiting().remove(id) {
            let _ = waiter.send(answer);
        }
    }

    /// The connection has ended: requests waiting for the client's answer
    /// fail now, and so will any sent from here on.
    pub(crate) fn close(&self) {
        self.0.closed.store(true, Ordering::Release);
        self.waiting().clear();
        self.0.ending.notify_waiters();
    }

    /// Completes when the connection ends.
    pub(crate) async fn closed(&self) {
        let ending = self.0.ending.notified();
        if self.0.closed.load(Ordering::Acquire) {
            return;
        }
        ending.await;
    }

    fn waiting(&self) -> MutexGuard<'_, HashMap<Box<str>, oneshot::Sender<ClientReply>>> {
        lock(&self.0.waiting)
    }
}

/// A request in flight on a session, registered for `notifications/cancelled`
/// for as long as this value lives.
pub(crate) struct InFlight {
    outbound: Outbound,
    key: Arc<str>,
    cancel: Arc<Cancel>,
}

impl InFlight {
    /// Fired when the client cancels the request.
    pub(crate) fn cancel(&self) -> &Arc<Cancel> {
        &self.cancel
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut in_flight = lock(&self.outbound.0.in_flight);
        // Removed with one lookup; put back, under its own key, if the id
        // was reused since by another request, which is rare.
        if let Some((key, entry)) = in_flight.remove_entry(&*self.key) {
            if !Arc::ptr_eq(&entry, &self.cancel) {
                in_flight.insert(key, entry);
            }
        }
    }
}

/// A session's outbound handle that lets the session end.
#[derive(Clone)]
pub(crate) struct WeakOutbound(Weak<Shared>);

impl WeakOutbound {
    /// The session's handle, if the session is still there.
    pub(crate) fn upgrade(&self) -> Option<Outbound> {
        self.0.upgrade().map(Outbound)
    }

    pub(crate) fn is_alive(&self) -> bool {
        self.0.strong_count() > 0
    }

    /// Sends `message` if the session is still there; whether it is.
    pub(crate) fn notify(&self, message: ToClient) -> bool {
        match self.upgrade() {
            Some(outbound) => {
                outbound.notify(message);
                true
            }
            None => false,
        }
    }
}

/// A place among the requests in flight, lent back while a request waits
/// for the client (or listens), and taken again once it is done: at once
/// if one is free, else as soon as one is (the request goes on meanwhile,
/// one over the bound for the short time it has left).
pub(crate) struct LentPlace(Arc<Semaphore>);

impl LentPlace {
    fn new(places: Arc<Semaphore>) -> Self {
        places.add_permits(1);
        Self(places)
    }
}

impl Drop for LentPlace {
    fn drop(&mut self) {
        match self.0.try_acquire() {
            Ok(place) => place.forget(),
            Err(_) => {
                let places = Arc::clone(&self.0);
                tokio::spawn(async move {
                    if let Ok(place) = places.acquire_owned().await {
                        place.forget();
                    }
                });
            }
        }
    }
}

/// One of our request ids (a JSON string we wrote) as raw JSON.
fn raw_id(id: &str) -> Box<RawValue> {
    RawValue::from_string(id.to_owned()).expect("our request ids are JSON strings")
}

fn ended() -> Error {
    Error::internal("the connection ended before the client answered")
}

struct Forget<'a> {
    outbound: &'a Outbound,
    id: &'a str,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.outbound.waiting().remove(self.id);
    }
}
