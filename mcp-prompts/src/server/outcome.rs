//! The one writer: a handler's typed outcome, serialized once, as the
//! request's era has it. In a session a result is written as it is; a
//! 2026-07-28 result goes in its envelope (`resultType`, `_meta` with the
//! server's info, caching hints on listings). Errors are written the same
//! in both.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::eventually::Eventually;
use super::modern::{CacheScope, Hints};
use super::{Reply, Service, Session};
use crate::error::Error;
use crate::protocol::answer::{Answer, Cached, ResultMeta};
use crate::protocol::era::Era;
use crate::protocol::jsonrpc::{failure, success};
use crate::protocol::modern::{ResultType, SERVER_INFO};
use crate::protocol::to_client::SUBSCRIPTION_ID;

/// A handler's outcome: its typed result, or an error.
pub(crate) type Outcome<A> = Result<A, Error>;

/// A 2026-07-28 result: its type, its `_meta`, its caching hints if it
/// has them, then the body's own fields, written in one pass.
#[derive(Serialize)]
struct Enveloped<'a, T> {
    #[serde(rename = "resultType")]
    result_type: ResultType,
    #[serde(rename = "_meta")]
    meta: Meta<'a>,
    #[serde(flatten)]
    hints: Option<Hints>,
    #[serde(flatten)]
    body: &'a T,
}

/// A 2026-07-28 result's `_meta`: the server's info (serialized when the
/// server was built), or with a listen's subscription beside it.
enum Meta<'a> {
    Built(&'a RawValue),
    Subscription {
        subscription: &'a RawValue,
        server_info: &'a RawValue,
    },
}

impl Serialize for Meta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Self::Built(meta) => meta.serialize(s),
            Self::Subscription {
                subscription,
                server_info,
            } => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry(SUBSCRIPTION_ID, subscription)?;
                map.serialize_entry(SERVER_INFO, server_info)?;
                map.end()
            }
        }
    }
}

impl Service {
    /// The caching hints a 2026-07-28 result carries, if any: the server's,
    /// private whatever the server's scope for a result that differs by
    /// who asks.
    pub(crate) fn hints(&self, cached: Cached) -> Option<Hints> {
        let hints = self.0.modern.hints;
        match cached {
            Cached::No => None,
            Cached::Shared => Some(hints),
            Cached::PerCaller => Some(Hints {
                scope: CacheScope::Private,
                ..hints
            }),
        }
    }

    /// The response to request `id`: `outcome` as `era` writes it.
    pub(crate) fn write<A: Answer>(&self, id: &RawValue, era: Era, outcome: &Outcome<A>) -> String {
        let answer = match outcome {
            Ok(answer) => answer,
            Err(error) => return failure(Some(id), error),
        };
        let Era::Stateless(request) = era else {
            return success(id, &answer.body(era.version()));
        };
        let modern = &self.0.modern;
        let hints = self.hints(answer.cached());
        let body = answer.body(request.version());
        let meta = match answer.meta() {
            ResultMeta::ServerInfo => Meta::Built(modern.meta()),
            ResultMeta::ServerInfoWithIcons => Meta::Built(modern.discover_meta()),
            ResultMeta::Subscription(subscription) => Meta::Subscription {
                subscription,
                server_info: modern.server_info(),
            },
        };
        let enveloped = Enveloped {
            result_type: answer.result_type(),
            meta,
            hints,
            body: &body,
        };
        success(id, &enveloped)
    }
}

impl Session {
    /// The reply to request `id`: its outcome written now, or once it is
    /// ready.
    pub(crate) fn reply<A>(&self, id: &RawValue, era: Era, outcome: Eventually<Outcome<A>>) -> Reply
    where
        A: Answer + Send + 'static,
    {
        match outcome {
            Eventually::Now(outcome) => Reply::Now(self.service.write(id, era, &outcome)),
            Eventually::Later(future) => {
                let (service, id) = (self.service.clone(), id.to_owned());
                Reply::Later(Box::pin(async move {
                    Some(service.write(&id, era, &future.await))
                }))
            }
        }
    }

    /// Like [`reply`](Self::reply), for an outcome that may turn out to
    /// need no response (`None`: a listen whose client went away).
    pub(crate) fn reply_if<A>(
        &self,
        id: &RawValue,
        era: Era,
        outcome: Eventually<Option<Outcome<A>>>,
    ) -> Reply
    where
        A: Answer + Send + 'static,
    {
        match outcome {
            Eventually::Now(None) => Reply::None,
            Eventually::Now(Some(outcome)) => Reply::Now(self.service.write(id, era, &outcome)),
            Eventually::Later(future) => {
                let (service, id) = (self.service.clone(), id.to_owned());
                Reply::Later(Box::pin(async move {
                    let outcome = future.await?;
                    Some(service.write(&id, era, &outcome))
                }))
            }
        }
    }

    /// The reply to request `id` when it fails before any handler runs.
    pub(crate) fn refuse(id: &RawValue, error: &Error) -> Reply {
        Reply::Now(failure(Some(id), error))
    }
}
