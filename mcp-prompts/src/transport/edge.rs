//! The edge where what the server answers becomes text: a request's typed
//! outcome is written here, once, by the transport that sends it (stdio,
//! HTTP), and by [`Session::handle`] for an application that carries the
//! messages itself.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::caller::{Access, Caller};
use crate::context::{Backchannel, Sender, TextRoute};
use crate::server::dispatch::Parsed;
use crate::server::{Response, Session};
use crate::telemetry::Network;

/// A response still being produced; `None` when there turns out to be
/// nothing to send.
pub type ResponseFuture = Pin<Box<dyn Future<Output = Option<String>> + Send>>;

/// What to send back for one incoming message.
#[non_exhaustive]
pub enum Reply {
    /// Nothing: the message was a notification or a response.
    None,
    /// A response ready now.
    Now(String),
    /// A response still being produced (an async prompt that waits).
    Later(ResponseFuture),
    /// An error response naming no request: the message could not be read
    /// as one (malformed JSON, an invalid envelope, a batch refused whole,
    /// a message over the size limit whose id could not be recovered), or
    /// reading it failed (a panic, answered -32603). HTTP answers it with
    /// status 400.
    Rejected(String),
}

impl Reply {
    /// Waits for the response, whichever kind it is.
    pub async fn into_message(self) -> Option<String> {
        match self {
            Self::None => None,
            Self::Now(message) | Self::Rejected(message) => Some(message),
            Self::Later(future) => future.await,
        }
    }
}

impl Session {
    /// Handles one incoming message (a JSON object, or a batch where the
    /// negotiated revision allows one) from the local user, who owns the
    /// process (as over stdio): every prompt is shown, whatever its
    /// scopes. A transport that carries remote clients uses
    /// [`handle_remote`](Self::handle_remote).
    pub fn handle(&self, text: &str) -> Reply {
        reply(self, || Parsed::new(text), &Sender::LOCAL)
    }

    /// Like [`handle`](Self::handle), but notifications the requests send
    /// (log messages) go to `route` instead of the session's own stream,
    /// for a transport that puts them on the response of the request they
    /// belong to.
    ///
    /// A panic while reading or dispatching the message (a bug, never
    /// expected) is answered with -32603 instead of ending the connection.
    pub fn handle_routed(&self, text: &str, route: Option<&mpsc::Sender<String>>) -> Reply {
        self.handle_from(text, route, Access::Local)
    }

    /// Handles one message from a remote client, which `caller` says who
    /// it is (`None`: nobody proved it): prompts restricted to some
    /// callers (`#[prompt(scopes = ..)]`, `visible`) are shown only to
    /// those, and are unknown to everyone else. Notifications go to
    /// `route`, as with [`handle_routed`](Self::handle_routed).
    pub fn handle_remote(
        &self,
        text: &str,
        route: Option<&mpsc::Sender<String>>,
        caller: Option<Caller>,
    ) -> Reply {
        self.handle_from(text, route, Access::Remote(caller.map(Arc::new)))
    }

    /// Handles one message served under `access`.
    fn handle_from(
        &self,
        text: &str,
        route: Option<&mpsc::Sender<String>>,
        access: Access,
    ) -> Reply {
        let wire = match access {
            Access::Local => Network::PIPE,
            Access::Remote(_) => Network::UNKNOWN,
        };
        let sender = Sender::new(
            route.map(|route| {
                let route: Arc<dyn TextRoute> = Arc::new(route.clone());
                Backchannel::Text(route)
            }),
            access,
            wire,
        );
        reply(self, || Parsed::new(text), &sender)
    }
}

/// What `session` answers the message `read` gives, from `sender`,
/// written at the edge under the server's panic guard.
#[inline]
pub(crate) fn reply<'a>(
    session: &'a Session,
    read: impl FnOnce() -> Parsed<'a>,
    sender: &'a Sender,
) -> Reply {
    session.serve_then(read, sender, |response| written(session, response, sender))
}

/// `response` written, once: a large answer's bytes left where `sender`
/// keeps them, for the transport to hold until it has sent it.
#[inline]
pub(crate) fn written(session: &Session, response: Response<'_>, sender: &Sender) -> Reply {
    let service = session.service();
    match response {
        Response::None => Reply::None,
        Response::Now(outcome) => Reply::Now(outcome.write(service, sender.kept())),
        Response::Rejected(error) => Reply::Rejected(Response::rejection(&error)),
        Response::Batch(crate::server::now_or_later::NowOrLater::Now(text)) => {
            text.map_or(Reply::None, Reply::Now)
        }
        Response::Batch(crate::server::now_or_later::NowOrLater::Later(future)) => {
            Reply::Later(future)
        }
        Response::Later(future) => {
            let (service, kept) = (service.clone(), sender.kept().cloned());
            Reply::Later(Box::pin(async move {
                Some(future.await?.write(&service, kept.as_ref()))
            }))
        }
    }
}
