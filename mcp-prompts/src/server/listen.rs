//! `subscriptions/listen` (2026-07-28): a long-lived request on which a
//! stateless client hears of catalog changes. The acknowledgement comes
//! first; every notification carries the listen request's id as its
//! subscription id; the request ends (with an empty result) when the
//! connection or the server ends, or when the client cancels it.

use std::future::{Future, poll_fn};
use std::task::Poll;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::methods::params;
use super::{Reply, Session};
use crate::context::Route;
use crate::protocol::jsonrpc::{failure, success};
use crate::protocol::modern::{Enveloped, ResultType, SERVER_INFO};
use crate::protocol::to_client::{SUBSCRIPTION_ID, ToClient};

/// The `_meta` of a listen's final result: its subscription, and the
/// server's info as every 2026-07-28 result carries it.
struct EndMeta<'a> {
    subscription: &'a RawValue,
    server_info: &'a RawValue,
}

impl serde::Serialize for EndMeta<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry(SUBSCRIPTION_ID, self.subscription)?;
        map.serialize_entry(SERVER_INFO, self.server_info)?;
        map.end()
    }
}

#[derive(Deserialize)]
struct ListenParams {
    notifications: Filter,
}

/// The notification types a client asks for; only prompts' are served.
#[derive(Deserialize)]
struct Filter {
    #[serde(rename = "promptsListChanged", default)]
    prompts_list_changed: bool,
}

impl Session {
    pub(super) fn listen(
        &self,
        id: &RawValue,
        raw: Option<&RawValue>,
        route: Option<&Route>,
    ) -> Reply {
        let p: ListenParams = match params(raw) {
            Ok(p) => p,
            Err(error) => return Reply::Now(failure(Some(id), &error)),
        };
        let listening = match self.state.outbound.open_listen() {
            Ok(listening) => listening,
            Err(limit) => {
                let error = crate::error::Error::invalid_request(format!(
                    "this connection has {limit} subscriptions open, the most it may: \
                     cancel one first"
                ))
                .with_data(serde_json::json!({ "limit": limit }));
                return Reply::Now(failure(Some(id), &error));
            }
        };
        // Honoured only where changes are announced at all.
        let honoured = p.notifications.prompts_list_changed && self.service.is_live();
        let ack = ToClient::Acknowledged {
            subscription: id.to_owned(),
            prompts_list_changed: honoured,
        };
        let mut changes = honoured.then(|| self.service.subscribe());
        let (outbound, route) = (self.state.outbound.clone(), route.cloned());
        let service = self.service.clone();
        let id = id.to_owned();
        Reply::Later(Box::pin(async move {
            let _listening = listening;
            let send = |message: ToClient| {
                let (outbound, route) = (&outbound, &route);
                async move {
                    match route {
                        Some(route) => route.send(message).await,
                        None => outbound.notify(message),
                    }
                }
            };
            if !send(ack).await {
                return None;
            }
            // Without tokio's macros (a feature users need not enable): the
            // end of the connection first, then a change.
            loop {
                let next = {
                    let mut closed = std::pin::pin!(outbound.closed());
                    let mut change = std::pin::pin!(async {
                        match &mut changes {
                            Some(changes) => changes.recv().await,
                            None => std::future::pending().await,
                        }
                    });
                    poll_fn(|cx| {
                        if closed.as_mut().poll(cx).is_ready() {
                            return Poll::Ready(None);
                        }
                        change.as_mut().poll(cx).map(Some)
                    })
                    .await
                };
                match next {
                    None => break,
                    // A stream nobody reads any more ends here.
                    Some(Some(())) => {
                        let announcement = ToClient::PromptsListChanged {
                            subscription: Some(id.clone()),
                        };
                        if !send(announcement).await {
                            return None;
                        }
                    }
                    // The catalog let go of this stream: no more changes.
                    Some(None) => changes = None,
                }
            }
            // Torn down by the server: the subscription's empty result.
            let meta = EndMeta {
                subscription: &id,
                server_info: service.inner().modern.server_info(),
            };
            let result = Enveloped {
                result_type: ResultType::Complete,
                meta: &meta,
                body: &serde_json::Map::new(),
            };
            Some(success(&id, &result))
        }))
    }
}
