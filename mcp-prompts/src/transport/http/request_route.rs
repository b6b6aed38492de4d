//! A request's own messages on their way to its HTTP response, as text.
//!
//! The channel is made by the first message sent, or by the response when
//! it waits for messages: most requests send none and are answered at
//! once, and a channel (its shared state and its first block of slots) is
//! two allocations a request would otherwise make and drop for nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::mpsc;

use crate::context::TextRoute;
use crate::sync::lock;

/// Messages a request may send before its response, held for it.
const REQUEST_QUEUE: usize = 256;

/// The handler's end of a request's route: the request's sender holds the
/// route through [`shared`](Self::shared), and the response takes what was
/// sent. Dropped with the handler, it closes the route unless a streamed
/// response took its receiver (that response then closes it by ending),
/// so that what the request sends after its answer goes to the session's
/// stream, and a question to the client fails at once.
#[derive(Debug)]
pub(crate) struct RequestRoute(Arc<Route>);

#[derive(Debug, Default)]
struct Route {
    channel: OnceLock<mpsc::Sender<String>>,
    /// The receiver, until the response takes it.
    receiver: Mutex<Option<mpsc::Receiver<String>>>,
    /// Set when nothing more is taken: the response is made without a
    /// stream, or the client takes none. (A streamed response closes the
    /// channel itself, by dropping its receiver.)
    closed: AtomicBool,
}

impl Route {
    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        if let Some(mut receiver) = lock(&self.receiver).take() {
            receiver.close();
        }
    }
}

impl TextRoute for Route {
    fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
            || self.channel.get().is_some_and(mpsc::Sender::is_closed)
    }

    /// The channel's sender, made on first use.
    fn sender(&self) -> &mpsc::Sender<String> {
        self.channel.get_or_init(|| {
            let (sender, receiver) = mpsc::channel(REQUEST_QUEUE);
            *lock(&self.receiver) = Some(receiver);
            // A close that came while the channel was made found no
            // receiver to close: it is closed here.
            if self.closed.load(Ordering::Acquire) {
                self.close();
            }
            sender
        })
    }
}

impl RequestRoute {
    /// An open route, with no channel yet.
    pub(crate) fn new() -> Self {
        Self(Arc::default())
    }

    /// A route closed from the start (the client takes no stream).
    pub(crate) fn closed() -> Self {
        let route = Self::new();
        route.0.close();
        route
    }

    /// The route as a request's sender holds it.
    pub(crate) fn shared(&self) -> Arc<dyn TextRoute> {
        self.0.clone()
    }

    /// What was sent so far, and the route closed: for a response made
    /// now.
    pub(crate) fn close_taking_sent(&self) -> Vec<String> {
        self.0.closed.store(true, Ordering::Release);
        lock(&self.0.receiver)
            .take()
            .map_or_else(Vec::new, |mut receiver| closing(&mut receiver))
    }

    /// The receiving end, for a response that waits for messages: the
    /// response closes the route by dropping it. A closed one, made
    /// without a channel of the route's, if the route is closed.
    pub(crate) fn receiver(&self) -> mpsc::Receiver<String> {
        let closed = || {
            let (_, mut receiver) = mpsc::channel(1);
            receiver.close();
            receiver
        };
        if self.0.closed.load(Ordering::Acquire) {
            return closed();
        }
        let _ = self.0.sender();
        lock(&self.0.receiver).take().unwrap_or_else(closed)
    }
}

/// What `receiver` holds, once closed: a request's messages sent before
/// its answer, which goes out now.
pub(crate) fn closing(receiver: &mut mpsc::Receiver<String>) -> Vec<String> {
    receiver.close();
    let mut sent = Vec::new();
    while let Ok(message) = receiver.try_recv() {
        sent.push(message);
    }
    sent
}

impl Drop for RequestRoute {
    fn drop(&mut self) {
        // Unless a streamed response holds the receiver: a channel made and
        // its receiver taken.
        let streaming = self.0.channel.get().is_some() && lock(&self.0.receiver).is_none();
        if !streaming {
            self.0.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_makes_no_channel_until_a_message_is_sent() {
        let route = RequestRoute::new();
        assert!(route.0.channel.get().is_none());
        assert!(route.close_taking_sent().is_empty());
        assert!(route.0.is_closed());
        assert!(route.0.channel.get().is_none());
    }

    #[test]
    fn what_is_sent_before_the_response_is_taken_with_it_and_nothing_after() {
        let route = RequestRoute::new();
        route.0.sender().try_send("a".into()).unwrap();
        route.0.sender().try_send("b".into()).unwrap();
        assert!(!route.0.is_closed());
        assert_eq!(route.close_taking_sent(), ["a", "b"]);
        assert!(route.0.is_closed());
        assert!(route.0.sender().try_send("c".into()).is_err());
    }

    #[test]
    fn a_route_closed_from_the_start_takes_nothing() {
        let route = RequestRoute::closed();
        assert!(route.0.is_closed());
        assert!(route.0.sender().try_send("a".into()).is_err());
        assert!(route.close_taking_sent().is_empty());
    }

    #[test]
    fn a_route_dropped_unanswered_gives_back_what_is_sent_later() {
        let route = RequestRoute::new();
        let shared = route.shared();
        drop(route);
        assert!(shared.is_closed());
        assert!(shared.sender().try_send("late".into()).is_err());
    }

    #[tokio::test]
    async fn a_waiting_response_receives_what_is_sent_later() {
        let route = RequestRoute::new();
        let mut receiver = route.receiver();
        let shared = route.shared();
        // The handler is gone; the streamed response goes on.
        drop(route);
        assert!(!shared.is_closed());
        shared.sender().send("later".into()).await.unwrap();
        assert_eq!(receiver.recv().await.as_deref(), Some("later"));
        drop(receiver);
        assert!(shared.is_closed());
    }
}
