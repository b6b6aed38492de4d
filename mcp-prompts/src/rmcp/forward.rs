//! What a prompt sends outside its response, handed to rmcp's peer as
//! rmcp's own types: log messages, progress and `list_changed` in the
//! order they were sent, and questions to the client (`elicitation/create`),
//! whose answers go back to the prompt waiting for them. While a request
//! runs, its own messages are sent from its handler (`RmcpPrompts::get`),
//! so that rmcp puts them on the request's stream; the [`Forwarder`] takes
//! the rest.

use std::time::Duration;

use ::rmcp::RoleServer;
#[allow(deprecated)] // Logging leaves MCP after 2026-07-28; clients before use it.
use ::rmcp::model::LoggingMessageNotificationParam;
use ::rmcp::model::{
    Notification, NotificationNoParam, NumberOrString, ProgressNotificationParam, ProgressToken,
    Request, ServerNotification, ServerRequest,
};
use ::rmcp::service::{Peer, PeerRequestOptions};
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use crate::context::WeakOutbound;
use crate::protocol::LogLevel;
use crate::protocol::to_client::ToClient;

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
    /// Starts forwarding to `peer`; answers go to `outbound`, and a
    /// question waits at most `timeout`. Called from a request handler, so
    /// on rmcp's runtime.
    pub(super) fn start(peer: Peer<RoleServer>, outbound: WeakOutbound, timeout: Duration) -> Self {
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
                        let asked = ask(peer.clone(), outbound.clone(), id, request, timeout);
                        tokio::spawn(asked);
                    }
                }
            }
        });
        Self(tx)
    }

    /// Queues one of our messages; whether it could be.
    pub(super) fn send(&self, message: ToClient) -> bool {
        convert(message).is_some_and(|outgoing| self.0.try_send(outgoing).is_ok())
    }
}

/// One of our messages as rmcp's type. `None` for what rmcp does itself:
/// withdrawing a question (its request times out under its own id, see
/// [`ask`]) and `subscriptions/listen`, which it serves.
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
        ToClient::Elicit { id, params } => {
            let params = serde_json::from_value(params).ok()?;
            let request = ServerRequest::ElicitRequest(Request::new(params));
            return Some(Outgoing::Request(id, request));
        }
        ToClient::PromptsListChanged {
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

/// Sends the request and hands the answer (or the failure) back. Past
/// `timeout` rmcp withdraws it with `notifications/cancelled` under the id
/// it sent, and our side, waiting as long, sees a decline.
pub(super) async fn ask(
    peer: Peer<RoleServer>,
    outbound: WeakOutbound,
    id: Box<RawValue>,
    request: ServerRequest,
    timeout: Duration,
) {
    let mut options = PeerRequestOptions::no_options();
    options.timeout = Some(timeout);
    let answer = match peer.send_request_with_option(request, options).await {
        Ok(handle) => match handle.await_response().await {
            Ok(result) => serde_json::to_value(&result).map_err(|err| err.to_string()),
            Err(err) => Err(err.to_string()),
        },
        Err(err) => Err(err.to_string()),
    };
    // Not before: a session that ends while its client thinks is let go.
    if let Some(outbound) = outbound.upgrade() {
        outbound.resolve(id.get(), answer);
    }
}
