//! Messages a prompt sends outside its response (log messages, progress,
//! `list_changed`), handed to rmcp's peer in the order they were sent.

use ::rmcp::RoleServer;
use ::rmcp::model::ServerNotification;
use ::rmcp::service::Peer;
use tokio::sync::mpsc;

/// The sending end; a task on the runtime that served the first request
/// sends each message through the peer in turn.
pub(super) struct Forwarder(mpsc::UnboundedSender<ServerNotification>);

impl Forwarder {
    /// Starts forwarding to `peer`. Called from a request handler, so on
    /// rmcp's runtime.
    pub(super) fn start(peer: Peer<RoleServer>) -> Self {
        let (tx, mut rx) = mpsc::unbounded_channel::<ServerNotification>();
        tokio::spawn(async move {
            while let Some(notification) = rx.recv().await {
                if peer.send_notification(notification).await.is_err() {
                    break; // The connection is gone.
                }
            }
        });
        Self(tx)
    }

    /// Queues one of our notifications, read into rmcp's type; whether it
    /// could be (a request to the client cannot: rmcp asks it itself).
    pub(super) fn send(&self, message: &str) -> bool {
        serde_json::from_str::<ServerNotification>(message)
            .is_ok_and(|notification| self.0.send(notification).is_ok())
    }
}
