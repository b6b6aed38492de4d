//! What a prompt sends outside its response, handed to rmcp's peer: log
//! messages, progress and `list_changed` in the order they were sent, and
//! questions to the client (`elicitation/create`), whose answers go back
//! to the prompt waiting for them. While a request runs, its own messages
//! are sent from its handler (`RmcpPrompts::get`), so that rmcp puts them
//! on the request's stream; the [`Forwarder`] takes the rest.

use ::rmcp::RoleServer;
use ::rmcp::model::{ServerNotification, ServerRequest};
use ::rmcp::service::Peer;
use serde_json::value::{RawValue, to_raw_value};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::context::WeakOutbound;

pub(super) enum Outgoing {
    Notification(ServerNotification),
    /// A request, with the id our side waits on.
    Request(Box<RawValue>, ServerRequest),
}

/// How many messages outside any request may wait to be sent; more are
/// dropped, as on our own transports, so a chatty prompt on a slow
/// connection cannot grow memory without bound.
const QUEUE: usize = 1024;

/// The sending end; a task on the runtime that served the first request
/// sends each message through the peer in turn.
pub(super) struct Forwarder(mpsc::Sender<Outgoing>);

impl Forwarder {
    /// Starts forwarding to `peer`; answers go to `outbound`. Called from
    /// a request handler, so on rmcp's runtime.
    pub(super) fn start(peer: Peer<RoleServer>, outbound: WeakOutbound) -> Self {
        let (tx, mut rx) = mpsc::channel::<Outgoing>(QUEUE);
        tokio::spawn(async move {
            while let Some(outgoing) = rx.recv().await {
                match outgoing {
                    // Best effort, as on our own transports: a message the
                    // connection cannot take is dropped.
                    Outgoing::Notification(notification) => {
                        let _ = peer.send_notification(notification).await;
                    }
                    // Answered whenever the user is done, while the rest
                    // goes on.
                    Outgoing::Request(id, request) => {
                        tokio::spawn(ask(peer.clone(), outbound.clone(), id, request));
                    }
                }
            }
        });
        Self(tx)
    }

    /// Queues one of our messages, read into rmcp's types; whether it
    /// could be.
    pub(super) fn send(&self, message: &str) -> bool {
        read(message).is_some_and(|outgoing| self.0.try_send(outgoing).is_ok())
    }
}

/// One of our messages as rmcp's type: a request if it has an id (rmcp
/// would read any method as a custom notification), else a notification.
pub(super) fn read(message: &str) -> Option<Outgoing> {
    let mut value: Value = serde_json::from_str(message).ok()?;
    let object = value.as_object_mut()?;
    object.remove("jsonrpc");
    match object.remove("id") {
        Some(id) => Some(Outgoing::Request(
            to_raw_value(&id).ok()?,
            serde_json::from_value(value).ok()?,
        )),
        None => serde_json::from_value(value)
            .ok()
            .map(Outgoing::Notification),
    }
}

/// Sends the request and hands the answer (or the failure) back.
pub(super) async fn ask(
    peer: Peer<RoleServer>,
    outbound: WeakOutbound,
    id: Box<RawValue>,
    request: ServerRequest,
) {
    let answer = match peer.send_request(request).await {
        Ok(result) => to_raw_value(&result).map_err(|err| err.to_string()),
        Err(err) => Err(err.to_string()),
    };
    // Not before: a session that ends while its client thinks is let go.
    let Some(outbound) = outbound.upgrade() else {
        return;
    };
    match answer {
        Ok(result) => outbound.resolve(&id, Ok(&result)),
        Err(message) => {
            let error = json!({ "code": crate::error::Error::INTERNAL_ERROR, "message": message });
            if let Ok(error) = to_raw_value(&error) {
                outbound.resolve(&id, Err(&error));
            }
        }
    }
}
