//! Stateless requests of revision 2026-07-28: `server/discover`, and the
//! methods a session also serves, answered with the modern result envelope
//! (`resultType`, the server's info in `_meta`, caching hints on lists).

use std::time::Duration;

use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{Reply, Session};
use crate::error::Error;
use crate::protocol::jsonrpc::{failure, success_raw};
use crate::protocol::modern::{
    Enveloped, ModernMeta, ResultType, SERVER_INFO, add_result_fields, supported_versions,
};

/// Whether clients may share a cached `prompts/list` between users.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum CacheScope {
    /// The list is the same for every user (the default).
    #[default]
    Public,
    /// The list may differ by the authorization presented.
    Private,
}

impl CacheScope {
    fn as_str(self) -> &'static str {
        match self {
            Self::Public => "public",
            Self::Private => "private",
        }
    }
}

/// How long clients may cache `prompts/list` and `server/discover` results
/// (2026-07-28 `ttlMs` and `cacheScope`); the same on every page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CacheHints {
    /// As set; by default [`FIXED_TTL`] or [`LIVE_TTL`].
    pub(crate) ttl: Option<Duration>,
    pub(crate) scope: CacheScope,
}

/// How long a fixed catalog's list may be reused by default.
const FIXED_TTL: Duration = Duration::from_secs(60);

/// How long a live catalog's list may be reused by default: it can change
/// at any moment, and a client that does not listen for changes should
/// see one soon.
const LIVE_TTL: Duration = Duration::from_secs(5);

impl CacheHints {
    pub(crate) fn ttl(self, changing: bool) -> Duration {
        self.ttl
            .unwrap_or(if changing { LIVE_TTL } else { FIXED_TTL })
    }
}

/// What modern results add, serialized once when the server is built.
pub(crate) struct ModernReplies {
    /// `{"io.modelcontextprotocol/serverInfo":{..}}`, every result's `_meta`.
    meta: Box<RawValue>,
    /// The `serverInfo` object alone.
    server_info: Box<RawValue>,
    /// `"resultType":"complete","_meta":{..serverInfo..}`.
    complete: Box<str>,
    /// The same with the caching hints, for `prompts/list`.
    listing: Box<str>,
    /// The whole `server/discover` result.
    discover: Box<str>,
}

impl ModernReplies {
    pub(crate) fn new(
        server_info: &Value,
        capabilities: &Value,
        instructions: Option<&str>,
        hints: CacheHints,
        changing: bool,
    ) -> Self {
        let meta = json!({ SERVER_INFO: server_info });
        let server_meta = format!("\"_meta\":{meta}");
        // A `Value` always serializes.
        let meta = serde_json::value::to_raw_value(&meta).expect("a JSON value serializes");
        let complete = format!("\"resultType\":\"complete\",{server_meta}");
        let ttl = u64::try_from(hints.ttl(changing).as_millis()).unwrap_or(u64::MAX);
        let hints = format!(
            "\"ttlMs\":{ttl},\"cacheScope\":\"{}\"",
            hints.scope.as_str()
        );
        let mut discover = json!({
            "supportedVersions": supported_versions(),
            "capabilities": capabilities,
        });
        if let Some(instructions) = instructions {
            discover["instructions"] = instructions.into();
        }
        let discover = add_fields(&discover.to_string(), &format!("{complete},{hints}"));
        let server_info =
            serde_json::value::to_raw_value(server_info).expect("a JSON value serializes");
        Self {
            meta,
            server_info,
            listing: format!("{complete},{hints}").into(),
            complete: complete.into(),
            discover: discover.into(),
        }
    }
}

impl ModernReplies {
    /// The server's `serverInfo`, for a result with more in its `_meta`.
    pub(crate) fn server_info(&self) -> &RawValue {
        &self.server_info
    }

    /// `body` as a 2026-07-28 result of type `result_type`.
    pub(crate) fn envelope<'a, T>(
        &'a self,
        result_type: ResultType,
        body: &'a T,
    ) -> Enveloped<'a, T> {
        Enveloped {
            result_type,
            meta: &self.meta,
            body,
        }
    }
}

/// `object` (a serialized JSON object) with `fields` added first.
fn add_fields(object: &str, fields: &str) -> String {
    match object.strip_prefix("{}") {
        Some(_) => format!("{{{fields}}}"),
        None => format!("{{{fields},{}", &object[1..]),
    }
}

impl Session {
    /// Serves a request that carries its own revision and capabilities,
    /// whatever the session has negotiated (or not).
    pub(super) fn modern_request(
        &self,
        id: &RawValue,
        method: &str,
        params: Option<&RawValue>,
        meta: ModernMeta,
        route: Option<&mpsc::Sender<String>>,
    ) -> Reply {
        let replies = &self.service.inner().modern;
        let reply = match method {
            "server/discover" => return Reply::Now(success_raw(id, &replies.discover)),
            "prompts/list" => {
                let listed = self.list_prompts(id, meta.version, params);
                let message = listed.unwrap_or_else(|error| failure(Some(id), &error));
                return Reply::Now(add_result_fields(message, id, &replies.listing));
            }
            "prompts/get" => return self.get_prompt(id, meta.into(), params, route),
            "completion/complete" => self.complete(id, params),
            "subscriptions/listen" => return self.listen(id, params, route),
            // Removed in 2026-07-28 along with the handshake.
            _ => return Reply::Now(failure(Some(id), &Error::method_not_found(method))),
        };
        let id = id.to_owned();
        let service = self.service.clone();
        reply.map(move |message| add_result_fields(message, &id, &service.inner().modern.complete))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;

    use crate::server::Server;
    use crate::testing::Client;

    async fn ttl(server: Server, live: bool) -> serde_json::Value {
        let service = if live {
            server.build_live().unwrap().0
        } else {
            server.build().unwrap()
        };
        let meta = json!({"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }});
        let listed = Client::new(&service).request("prompts/list", &meta).await;
        listed.unwrap()["ttlMs"].clone()
    }

    #[tokio::test]
    async fn a_live_list_may_be_reused_only_briefly_unless_told_otherwise() {
        let server =
            || Server::new("t", "1").prompts(std::iter::empty::<crate::catalog::AnyPrompt>());
        assert_eq!(ttl(server(), false).await, json!(60_000));
        assert_eq!(ttl(server(), true).await, json!(5_000));
        let told = server().cache_ttl(Duration::from_secs(30));
        assert_eq!(ttl(told, true).await, json!(30_000));
    }
}
