//! What a prompt sends outside its response, handed to rmcp's peer as
//! rmcp's own types: log messages, progress and `list_changed` in the
//! order they were sent, and questions to the client (`elicitation/create`),
//! whose answers go back to the prompt waiting for them. While a request
//! runs, its own messages are sent from its handler (`RmcpPrompts::get`),
//! so that rmcp puts them on the request's stream; the [`Forwarder`] takes
//! the rest.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ::rmcp::RoleServer;
#[allow(deprecated)] // Logging leaves MCP after 2026-07-28; clients before use it.
use ::rmcp::model::LoggingMessageNotificationParam;
use ::rmcp::model::{
    CancelledNotificationParam, Notification, NotificationNoParam, NumberOrString,
    ProgressNotificationParam, ProgressToken, Request, RequestId, ServerNotification,
    ServerRequest,
};
use ::rmcp::service::{Peer, PeerRequestOptions};
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};

use crate::context::WeakOutbound;
use crate::protocol::LogLevel;
use crate::protocol::to_client::ToClient;
use crate::sync::lock;

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
pub(super) struct Forwarder {
    queue: mpsc::Sender<Queued>,
    asked: Asked,
}

/// What the forwarding task sends: a question is open (can be withdrawn)
/// from the moment it is queued.
enum Queued {
    Notification(ServerNotification),
    Request(Box<RawValue>, ServerRequest, Open),
}

impl Forwarder {
    /// Starts forwarding to `peer`; answers go to `outbound`. Called from
    /// a request handler, so on rmcp's runtime.
    pub(super) fn start(peer: Peer<RoleServer>, outbound: WeakOutbound, asked: Asked) -> Self {
        let (tx, mut rx) = mpsc::channel::<Queued>(QUEUE);
        tokio::spawn(async move {
            while let Some(queued) = rx.recv().await {
                match queued {
                    // Best effort, as on our own transports: a message the
                    // connection cannot take is dropped.
                    Queued::Notification(notification) => {
                        let _ = peer.send_notification(notification).await;
                    }
                    // Answered whenever the user is done, while the rest
                    // goes on.
                    Queued::Request(id, request, open) => {
                        tokio::spawn(ask(peer.clone(), outbound.clone(), id, request, open));
                    }
                }
            }
        });
        Self { queue: tx, asked }
    }

    /// Queues one of our messages; whether it could be.
    pub(super) fn send(&self, message: ToClient) -> bool {
        if let ToClient::Cancelled { request, .. } = &message {
            return self.asked.withdraw(request.get());
        }
        let queued = match convert(message) {
            Some(Outgoing::Notification(notification)) => Queued::Notification(notification),
            Some(Outgoing::Request(id, request)) => {
                let open = self.asked.open(id.get());
                Queued::Request(id, request, open)
            }
            None => return false,
        };
        self.queue.try_send(queued).is_ok()
    }
}

/// The questions sent through rmcp and not answered yet, by our id: one
/// withdrawn here stops waiting, and the client is told under the id rmcp
/// sent it with.
#[derive(Clone, Default)]
pub(super) struct Asked(Arc<Mutex<HashMap<Box<str>, oneshot::Sender<()>>>>);

impl Asked {
    /// Withdraws the question `id` (our id, as JSON); whether it was open.
    pub(super) fn withdraw(&self, id: &str) -> bool {
        let waiting = lock(&self.0).remove(id);
        waiting.is_some_and(|withdraw| withdraw.send(()).is_ok())
    }

    /// Opens the question `id` (our id, as JSON): from now on it can be
    /// withdrawn, until the returned place is dropped.
    pub(super) fn open(&self, id: &str) -> Open {
        let (tx, rx) = oneshot::channel();
        lock(&self.0).insert(id.into(), tx);
        Open {
            asked: self.clone(),
            id: id.into(),
            withdrawn: rx,
        }
    }
}

/// An open question's place in [`Asked`], given up when dropped.
pub(super) struct Open {
    asked: Asked,
    id: Box<str>,
    withdrawn: oneshot::Receiver<()>,
}

impl Drop for Open {
    fn drop(&mut self) {
        lock(&self.asked.0).remove(&self.id);
    }
}

/// A question the client has not answered: dropped so (withdrawn, its
/// request ended or cancelled), the client is sent `notifications/cancelled`
/// under rmcp's id, so it can close its form.
struct Unanswered {
    peer: Peer<RoleServer>,
    id: Option<RequestId>,
}

impl Drop for Unanswered {
    fn drop(&mut self) {
        let (Some(id), Ok(runtime)) = (self.id.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let peer = self.peer.clone();
        let reason = Some("the server no longer waits for this answer".to_owned());
        let params = CancelledNotificationParam::new(Some(id), reason);
        let cancelled = ServerNotification::CancelledNotification(Notification::new(params));
        runtime.spawn(async move {
            let _ = peer.send_notification(cancelled).await;
        });
    }
}

/// One of our messages as rmcp's type. `None` for what has no rmcp
/// message: a withdrawn question ([`Asked::withdraw`] tells the client
/// under rmcp's id) and a `subscriptions/listen`'s messages, which rmcp's
/// subscription sink sends ([`RmcpPrompts::listen`](super::RmcpPrompts::listen)).
pub(super) fn convert(message: ToClient) -> Option<Outgoing> {
    let notification = match message {
        #[allow(deprecated)] // Logging leaves MCP after 2026-07-28; clients before use it.
        ToClient::Log { level, data } => {
            let params = LoggingMessageNotificationParam::new(level_of(level), data);
            ServerNotification::LoggingMessageNotification(Notification::new(params))
        }
        ToClient::Progress {
            token,
            progress,
            total,
            message,
        } => {
            let mut params = ProgressNotificationParam::new(progress_token(&token)?, progress);
            params.total = total;
            params.message = message;
            ServerNotification::ProgressNotification(Notification::new(params))
        }
        ToClient::PromptsListChanged { subscription: None } => {
            ServerNotification::PromptListChangedNotification(NotificationNoParam::default())
        }
        ToClient::ResourcesListChanged { subscription: None } => {
            ServerNotification::ResourceListChangedNotification(NotificationNoParam::default())
        }
        ToClient::Elicit { id, params } => {
            let params = serde_json::from_value(params).ok()?;
            let request = ServerRequest::ElicitRequest(Request::new(params));
            return Some(Outgoing::Request(id, request));
        }
        ToClient::PromptsListChanged {
            subscription: Some(_),
        }
        | ToClient::ResourcesListChanged {
            subscription: Some(_),
        }
        | ToClient::Acknowledged { .. }
        | ToClient::Cancelled { .. } => return None,
    };
    Some(Outgoing::Notification(notification))
}

/// Our progress token (a JSON string or integer, as the client sent it)
/// as rmcp's.
fn progress_token(token: &RawValue) -> Option<ProgressToken> {
    let text = token.get();
    let token = match text.parse::<i64>() {
        Ok(number) => NumberOrString::Number(number),
        Err(_) => NumberOrString::String(serde_json::from_str::<String>(text).ok()?.into()),
    };
    Some(ProgressToken(token))
}

/// Our log level as rmcp's: the same eight levels of the specification.
#[allow(deprecated)] // Logging leaves MCP after 2026-07-28; clients before use it.
fn level_of(level: LogLevel) -> ::rmcp::model::LoggingLevel {
    use ::rmcp::model::LoggingLevel as Level;
    match level {
        LogLevel::Debug => Level::Debug,
        LogLevel::Info => Level::Info,
        LogLevel::Notice => Level::Notice,
        LogLevel::Warning => Level::Warning,
        LogLevel::Error => Level::Error,
        LogLevel::Critical => Level::Critical,
        LogLevel::Alert => Level::Alert,
        LogLevel::Emergency => Level::Emergency,
    }
}

/// Sends the request and hands the answer (or the failure) back. Until
/// the client answers, the question can be withdrawn through its `open`
/// place (opened when the question was queued, so that no withdrawal can
/// miss it); withdrawn or dropped unanswered, the client is told.
pub(super) async fn ask(
    peer: Peer<RoleServer>,
    outbound: WeakOutbound,
    id: Box<RawValue>,
    request: ServerRequest,
    mut open: Open,
) {
    let options = PeerRequestOptions::no_options();
    let handle = match peer.send_request_with_option(request, options).await {
        Ok(handle) => handle,
        Err(err) => return resolve(&outbound, &id, Err(err.to_string())),
    };
    let mut unanswered = Unanswered {
        peer,
        id: Some(handle.id.clone()),
    };
    let answer = tokio::select! {
        // An answer that came is taken, even if a withdrawal came too.
        biased;
        answer = handle.rx => answer,
        // Withdrawn: `unanswered` tells the client as it drops.
        _ = &mut open.withdrawn => return,
    };
    unanswered.id = None;
    let answer = match answer {
        Ok(Ok(result)) => serde_json::to_value(&result).map_err(|err| err.to_string()),
        Ok(Err(err)) => Err(err.to_string()),
        Err(_) => Err("the connection ended before the client answered".to_owned()),
    };
    resolve(&outbound, &id, answer);
}

/// Hands the answer to the request waiting for it, if its session is still
/// there (not before: a session that ends while its client thinks is let
/// go).
fn resolve(outbound: &WeakOutbound, id: &RawValue, answer: crate::context::ClientReply) {
    if let Some(outbound) = outbound.upgrade() {
        outbound.resolve(id.get(), answer);
    }
}
