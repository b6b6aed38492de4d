//! Where a request's own messages go while it runs: its response stream
//! (HTTP), or the rmcp handler serving it. Each takes the messages in its
//! own form: text for a stream we write, typed values for rmcp.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::unsent::{Kept, Reservation};
use crate::caller::{Access, Caller};

use crate::protocol::to_client::ToClient;
use crate::telemetry::Network;

/// Where a request comes from: who sent it, and where its own messages
/// go while it runs. A transport makes one per request (HTTP) or per
/// connection (stdio, [`Sender::LOCAL`]).
#[derive(Clone, Debug)]
pub(crate) struct Sender {
    route: Option<Backchannel>,
    access: Access,
    /// What it came over, for its telemetry.
    wire: Network,
    /// Where the reservations of its answers are left for the transport
    /// (see `unsent.rs`); `None`: the caller writes the answers itself,
    /// and they are given back as soon as the answer is made.
    kept: Option<Kept>,
}

impl Sender {
    /// The local user, whose messages go to the session's own stream.
    pub(crate) const LOCAL: Self = Self {
        route: None,
        access: Access::Local,
        wire: Network::PIPE,
        kept: None,
    };

    /// A request whose own messages take `route` (`None`: the session's
    /// stream), from `access`, over `wire`.
    pub(crate) fn new(route: Option<Backchannel>, access: Access, wire: Network) -> Self {
        Self {
            route,
            access,
            wire,
            kept: None,
        }
    }

    /// The same sender, whose answers' reservations of the unsent budget
    /// are kept for the transport to take ([`take_reserved`](Self::take_reserved))
    /// and hold until it has written them; with the language they are in
    /// if `notes_language` (for a transport that names it).
    pub(crate) fn keeping_reservations(mut self, notes_language: bool) -> Self {
        self.kept = Some(Kept::new(notes_language));
        self
    }

    /// Leaves `reserved`, the bytes of an answer to this sender, for the
    /// transport; one that keeps nothing gets them back at once.
    pub(crate) fn keep(&self, reserved: Reservation) {
        if let Some(kept) = &self.kept {
            kept.keep(reserved);
        }
    }

    /// The reservations of the answers made since last asked, to hold
    /// until they are written.
    #[inline]
    pub(crate) fn take_reserved(&self) -> Option<Reservation> {
        self.kept.as_ref().and_then(Kept::take)
    }

    /// Where the reservations of its answers are left, if they are kept:
    /// for an answer made later, on another task, which keeps its
    /// reservation there when it is written, and for a transport to take
    /// it once the answer is made (or hold it with the answer's body).
    pub(crate) fn kept(&self) -> Option<&Kept> {
        self.kept.as_ref()
    }

    /// The request's own channel to the client, if it has one.
    pub(crate) fn backchannel(&self) -> Option<&Backchannel> {
        self.route.as_ref()
    }

    /// Who asks.
    pub(crate) fn access(&self) -> &Access {
        &self.access
    }

    /// What the request came over.
    pub(crate) fn network(&self) -> &Network {
        &self.wire
    }

    /// The caller the request proves, if any.
    pub(crate) fn caller(&self) -> Option<&Arc<Caller>> {
        self.access.caller()
    }
}

/// A channel a request's messages go on as text: one whose receiving end
/// a transport holds, or one an HTTP response makes when first used.
pub(crate) trait TextRoute: Send + Sync + std::fmt::Debug {
    /// Whether the route takes no more messages (its request is
    /// answered): what is sent is then given back.
    fn is_closed(&self) -> bool;

    /// The channel's sending end.
    fn sender(&self) -> &mpsc::Sender<String>;
}

impl TextRoute for mpsc::Sender<String> {
    fn is_closed(&self) -> bool {
        mpsc::Sender::is_closed(self)
    }

    fn sender(&self) -> &Self {
        self
    }
}

/// A request's own channel to the client. Cheap to clone.
#[derive(Clone, Debug)]
pub(crate) enum Backchannel {
    /// Written as JSON-RPC text for a transport's stream.
    Text(Arc<dyn TextRoute>),
    /// Handed over as it is: the rmcp adapter converts it, the testing
    /// client answers its questions.
    Typed(mpsc::Sender<ToClient>),
}

impl Backchannel {
    /// Queues `message` if there is room now; a closed route (the request
    /// is answered) gives it back, for the session's stream to take.
    pub(crate) fn try_send(&self, message: ToClient) -> Result<(), Option<ToClient>> {
        match self {
            Self::Text(route) if route.is_closed() => Err(Some(message)),
            // Closed since it was asked (the request was answered meanwhile):
            // given back too.
            Self::Text(route) => {
                route
                    .sender()
                    .try_send(message.to_json())
                    .map_err(|error| match error {
                        mpsc::error::TrySendError::Closed(_) => Some(message),
                        mpsc::error::TrySendError::Full(_) => None,
                    })
            }
            Self::Typed(route) => route.try_send(message).map_err(|error| match error {
                mpsc::error::TrySendError::Closed(message) => Some(message),
                mpsc::error::TrySendError::Full(_) => None,
            }),
        }
    }

    /// Queues `message`, waiting for room; whether the route took it.
    pub(crate) async fn send(&self, message: ToClient) -> bool {
        match self {
            Self::Text(route) => route.sender().send(message.to_json()).await.is_ok(),
            Self::Typed(route) => route.send(message).await.is_ok(),
        }
    }
}
