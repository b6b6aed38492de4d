//! `subscriptions/listen` (2026-07-28): a long-lived request on which a
//! stateless client hears of catalog changes. The acknowledgement comes
//! first; every notification carries the listen request's id as its
//! subscription id; the request ends (with an empty result) when the
//! connection or the server ends, or when the client cancels it.

use std::future::{Future, poll_fn};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;

use serde_json::value::RawValue;

use super::handler::{Handled, Handler, Handling};
use crate::context::{LentPlace, Outbound};
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::{Answer, Empty, ResultMeta};
use crate::protocol::method::SubscriptionsListen;
use crate::protocol::params::ListenParams;
use crate::protocol::to_client::ToClient;

/// The `subscriptions/listen` requests one connection holds open, up to
/// its limit ([`Server::max_listens`](crate::Server::max_listens)): the
/// session's state, apart from the channel its requests talk through.
pub(crate) struct Listens {
    open: AtomicUsize,
    max: usize,
}

impl Listens {
    /// None open yet, at most `max`.
    pub(crate) fn new(max: usize) -> Arc<Self> {
        Arc::new(Self {
            open: AtomicUsize::new(0),
            max,
        })
    }

    /// Opens one on the connection `outbound` talks through, if fewer
    /// than the limit are open (else the limit): it holds no place among
    /// the requests in flight (it lends its own back), only one of the
    /// listens, until dropped.
    pub(crate) fn open(self: &Arc<Self>, outbound: &Outbound) -> Result<Listening, usize> {
        let max = self.max;
        self.open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |open| {
                (open < max).then_some(open + 1)
            })
            .map_err(|_| max)?;
        Ok(Listening {
            listens: Arc::clone(self),
            _lent: outbound.lend_place(),
        })
    }
}

/// An open `subscriptions/listen`, counted until dropped.
pub(crate) struct Listening {
    listens: Arc<Listens>,
    _lent: Option<LentPlace>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.listens.open.fetch_sub(1, Ordering::AcqRel);
    }
}

/// How a listen ends when the server tears it down: an empty result
/// whose `_meta` names its subscription.
pub(crate) struct ListenEnd {
    subscription: Box<RawValue>,
}

impl Answer for ListenEnd {
    fn meta(&self) -> ResultMeta<'_> {
        ResultMeta::Subscription(&self.subscription)
    }

    fn body(&self, version: ProtocolVersion) -> impl serde::Serialize + '_ {
        Empty.body(version)
    }
}

impl Handler for SubscriptionsListen {
    type Result = ListenEnd;

    /// Serves `subscriptions/listen`: `None` at its end if its client
    /// went away first, and nothing is sent.
    fn handle(cx: &Handling<'_>, p: ListenParams) -> Handled<ListenEnd> {
        let (id, connection, service) = (cx.id(), cx.connection(), cx.service());
        let listening = match connection.listens(service).open(&connection.outbound) {
            Ok(listening) => listening,
            Err(limit) => {
                let error = Error::invalid_request(format!(
                    "this connection has {limit} subscriptions open, the most it may: \
                     cancel one first"
                ))
                .with_limit(limit);
                return Handled::Now(Err(error));
            }
        };
        // Honoured only where changes are announced at all.
        let prompts = p.prompts_list_changed() && service.is_live();
        let resources = p.resources_list_changed() && service.skills_live();
        let ack = ToClient::Acknowledged {
            subscription: id.to_owned(),
            prompts_list_changed: prompts,
            resources_list_changed: resources,
        };
        let mut changes = [
            prompts.then(|| service.subscribe()),
            resources.then(|| service.subscribe_skills()),
        ];
        let route = cx.sender().backchannel().cloned();
        let outbound = connection.outbound.clone();
        let id = id.to_owned();
        Handled::LaterIfAny(Box::pin(async move {
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
            // end of the connection first, then a change of either list.
            loop {
                let next = {
                    let mut closed = std::pin::pin!(outbound.closed());
                    poll_fn(|cx| {
                        if closed.as_mut().poll(cx).is_ready() {
                            return Poll::Ready(None);
                        }
                        for (list, receiver) in changes.iter_mut().enumerate() {
                            let polled = receiver.as_mut().map(|rx| rx.poll_recv(cx));
                            if let Some(Poll::Ready(change)) = polled {
                                return Poll::Ready(Some((list, change)));
                            }
                        }
                        Poll::Pending
                    })
                    .await
                };
                let subscription = Some(id.clone());
                match next {
                    None => break,
                    // A stream nobody reads any more ends here.
                    Some((list, Some(()))) => {
                        let announcement = if list == 0 {
                            ToClient::PromptsListChanged { subscription }
                        } else {
                            ToClient::ResourcesListChanged { subscription }
                        };
                        if !send(announcement).await {
                            return None;
                        }
                    }
                    // The list let go of this stream: no more changes.
                    Some((list, None)) => changes[list] = None,
                }
            }
            // Torn down by the server: the subscription's empty result.
            Some(Ok(ListenEnd { subscription: id }))
        }))
    }
}
