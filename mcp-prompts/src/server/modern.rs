//! Stateless requests of revision 2026-07-28: `server/discover`, and the
//! methods a session also serves, answered with the modern result envelope
//! (`resultType`, the server's info in `_meta`, caching hints on lists).

use std::time::Duration;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::{Era, Reply, Service, Session};
use crate::context::Origin;
use crate::error::Error;
use crate::protocol::jsonrpc::{failure, success, success_raw};
use crate::protocol::method::{Capability, Method};
use crate::protocol::modern::{Enveloped, ModernMeta, ResultType, SERVER_INFO, supported_versions};

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

impl Serialize for CacheScope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Self::Public => "public",
            Self::Private => "private",
        })
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

/// The caching hints as every listing (and `server/discover`) sends them.
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct Hints {
    #[serde(rename = "ttlMs")]
    pub(crate) ttl_ms: u64,
    #[serde(rename = "cacheScope")]
    pub(crate) scope: CacheScope,
}

/// How long a fixed catalog's list may be reused by default.
const FIXED_TTL: Duration = Duration::from_secs(60);

/// How long a live catalog's list may be reused by default: it can change
/// at any moment, and a client that does not listen for changes should
/// see one soon.
const LIVE_TTL: Duration = Duration::from_secs(5);

impl CacheHints {
    /// The hints as sent, for a catalog that can change or not.
    pub(crate) fn resolve(self, changing: bool) -> Hints {
        let ttl = self
            .ttl
            .unwrap_or(if changing { LIVE_TTL } else { FIXED_TTL });
        Hints {
            ttl_ms: u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
            scope: self.scope,
        }
    }
}

/// What modern results add, serialized once when the server is built.
pub(crate) struct ModernReplies {
    /// `{"io.modelcontextprotocol/serverInfo":{..}}`, every result's `_meta`.
    meta: Box<RawValue>,
    /// The `serverInfo` object alone.
    server_info: Box<RawValue>,
    /// The caching hints of listings.
    pub(crate) hints: Hints,
    /// The whole `server/discover` result.
    discover: Box<str>,
}

impl ModernReplies {
    /// `discover_info` is `server_info` with what only `server/discover`
    /// carries (icons).
    pub(crate) fn new(
        server_info: &Value,
        discover_info: &Value,
        capabilities: &Value,
        instructions: Option<&str>,
        hints: Hints,
    ) -> Self {
        #[derive(Serialize)]
        struct Discover<'a> {
            #[serde(flatten)]
            hints: Hints,
            #[serde(rename = "supportedVersions")]
            supported_versions: Vec<&'static str>,
            capabilities: &'a Value,
            #[serde(skip_serializing_if = "Option::is_none")]
            instructions: Option<&'a str>,
        }
        // A `Value` always serializes, and so do these.
        let raw = |value: &Value| serde_json::value::to_raw_value(value).expect("JSON serializes");
        let mut replies = Self {
            meta: raw(&json!({ SERVER_INFO: server_info })),
            server_info: raw(server_info),
            hints,
            discover: Box::default(),
        };
        let discover = Discover {
            hints,
            supported_versions: supported_versions(),
            capabilities,
            instructions,
        };
        let discover_meta = raw(&json!({ SERVER_INFO: discover_info }));
        let discover = Enveloped {
            result_type: ResultType::Complete,
            meta: &discover_meta,
            body: &discover,
        };
        replies.discover = serde_json::to_string(&discover)
            .expect("JSON serializes")
            .into_boxed_str();
        replies
    }

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

impl Session {
    /// Serves a request that carries its own revision and capabilities,
    /// whatever the session has negotiated (or not).
    pub(super) fn modern_request(
        &self,
        id: &RawValue,
        name: &str,
        params: Option<&RawValue>,
        meta: ModernMeta,
        origin: &Origin,
    ) -> Reply {
        let era = Era::Stateless(meta);
        let method = match self.service.serves_stateless(name) {
            Ok(method) => method,
            Err(error) => return Reply::Now(failure(Some(id), &error)),
        };
        let result = match method {
            Method::ServerDiscover => {
                let discover = &self.service.inner().modern.discover;
                return Reply::Now(success_raw(id, discover));
            }
            Method::PromptsList => self.list_prompts(id, era, params, &origin.access),
            Method::PromptsGet => return self.get_prompt(id, era, params, origin),
            Method::CompletionComplete => return self.complete(id, era, params, &origin.access),
            Method::SubscriptionsListen => return self.listen(id, params, origin.route.as_ref()),
            Method::ToolsList => self.list_tools(id, era, params),
            Method::ToolsCall => return self.call_tool(id, era, params, origin),
            // Removed in 2026-07-28 along with the handshake: `serves`
            // refused them.
            Method::Initialize | Method::Ping | Method::LoggingSetLevel => {
                Err(Error::method_not_found(name))
            }
        };
        Reply::Now(result.unwrap_or_else(|error| failure(Some(id), &error)))
    }
}

impl Service {
    /// The method the request names, if the request's revision has it
    /// (`method` is `None` if not) and the server declares the capability
    /// it needs; else -32601.
    pub(crate) fn serves(&self, name: &str, method: Option<Method>) -> Result<Method, Error> {
        self.declared(method.ok_or_else(|| Error::method_not_found(name))?)
    }

    /// The 2026-07-28 method `name`, if that revision has it and the
    /// server declares what it needs; else -32601.
    pub(crate) fn serves_stateless(&self, name: &str) -> Result<Method, Error> {
        self.serves(name, Method::from_name(name).filter(|m| m.in_stateless()))
    }

    /// `method`, if the server declares the capability it needs; else
    /// -32601.
    pub(crate) fn declared(&self, method: Method) -> Result<Method, Error> {
        match method.capability() {
            Some(capability) if !self.declares(capability) => Err(Error::new(
                Error::METHOD_NOT_FOUND,
                format!(
                    "{} is not supported: this server declares no {}",
                    method.name(),
                    capability.name()
                ),
            )),
            _ => Ok(method),
        }
    }

    /// Whether the server declares `capability`.
    pub(crate) fn declares(&self, capability: Capability) -> bool {
        match capability {
            Capability::Prompts | Capability::Logging => true,
            Capability::Completions => self.inner().declared.completions,
            Capability::Tools => self.inner().declared.tools,
        }
    }

    /// A 2026-07-28 listing (`prompts/list`, `tools/list`) with its
    /// caching hints; `private` when the list may differ by who asks,
    /// whatever the server's default scope.
    pub(crate) fn modern_listing<T: Serialize>(
        &self,
        id: &RawValue,
        page: &T,
        private: bool,
    ) -> String {
        #[derive(Serialize)]
        struct Listing<'a, T> {
            #[serde(flatten)]
            hints: Hints,
            #[serde(flatten)]
            page: &'a T,
        }
        let inner = self.inner();
        let mut hints = inner.modern.hints;
        if private {
            hints.scope = CacheScope::Private;
        }
        let listing = Listing { hints, page };
        success(id, &inner.modern.envelope(ResultType::Complete, &listing))
    }

    /// `body` as the result of the request `id`: as it is in a session, in
    /// the 2026-07-28 envelope for a stateless request.
    pub(crate) fn result<T: Serialize>(&self, id: &RawValue, era: Era, body: &T) -> String {
        match era {
            Era::Session(_) => success(id, body),
            Era::Stateless(_) => success(
                id,
                &self.inner().modern.envelope(ResultType::Complete, body),
            ),
        }
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

    #[test]
    fn a_method_behind_an_undeclared_capability_is_not_found() {
        use crate::protocol::method::Method;
        let nothing = std::iter::empty::<crate::catalog::AnyPrompt>();
        let service = Server::new("t", "1").prompts(nothing).build().unwrap();
        let complete = Some(Method::CompletionComplete);
        let error = service.serves("completion/complete", complete).unwrap_err();
        assert_eq!(error.code(), crate::error::Error::METHOD_NOT_FOUND);
        assert!(
            error.message().contains("declares no completions"),
            "{error:?}"
        );
        let error = service.serves("tools/list", None).unwrap_err();
        assert_eq!(error.code(), crate::error::Error::METHOD_NOT_FOUND);
        let list = Some(Method::PromptsList);
        assert_eq!(service.serves("prompts/list", list).ok(), list);
        // What the stateless HTTP endpoint answers 404: a method the
        // revision lacks, or one behind an undeclared capability.
        assert_eq!(service.serves_stateless("prompts/list").ok(), list);
        for name in ["ping", "logging/setLevel", "completion/complete"] {
            let error = service.serves_stateless(name).unwrap_err();
            assert_eq!(
                error.code(),
                crate::error::Error::METHOD_NOT_FOUND,
                "{name}"
            );
        }
        let nothing = std::iter::empty::<crate::catalog::AnyPrompt>();
        let service = Server::new("t", "1")
            .prompts(nothing)
            .completions()
            .build()
            .unwrap();
        assert_eq!(
            service.serves("completion/complete", complete).ok(),
            complete
        );
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
