//! What the results of revision 2026-07-28 add: the server's info in every
//! result's `_meta`, serialized once, and the caching hints of listings.

use std::time::Duration;

use serde::Serialize;
use serde_json::value::RawValue;

use super::info::{Info, ServerInfo};
use crate::protocol::ProtocolVersion;
use crate::protocol::modern::SERVER_INFO;

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
    pub(super) ttl: Option<Duration>,
    pub(super) scope: CacheScope,
}

/// The caching hints as every listing (and `server/discover`) sends them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hints {
    pub(super) ttl_ms: u64,
    pub(super) scope: CacheScope,
}

impl Hints {
    /// How long the result may be reused, in milliseconds.
    pub(crate) fn ttl_ms(self) -> u64 {
        self.ttl_ms
    }

    /// Who may reuse it.
    pub(crate) fn scope(self) -> CacheScope {
        self.scope
    }
}

/// Written as the rmcp adapter converts them, through the same accessors.
impl Serialize for Hints {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("ttlMs", &self.ttl_ms())?;
        map.serialize_entry("cacheScope", &self.scope())?;
        map.end()
    }
}

/// How long a fixed catalog's list may be reused by default.
const FIXED_TTL: Duration = Duration::from_secs(60);

/// How long a live catalog's list may be reused by default: it can change
/// at any moment, and a client that does not listen for changes should
/// see one soon.
const LIVE_TTL: Duration = Duration::from_secs(5);

impl CacheHints {
    /// The hints as sent, for a catalog that can change or not.
    pub(crate) fn resolve(self, live: bool) -> Hints {
        let ttl = self.ttl.unwrap_or(if live { LIVE_TTL } else { FIXED_TTL });
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
    /// The same with the server's icons: `server/discover`'s `_meta`.
    discover_meta: Box<RawValue>,
    /// The `serverInfo` object alone.
    server_info: Box<RawValue>,
    /// The caching hints of listings.
    pub(super) hints: Hints,
}

impl ModernReplies {
    pub(crate) fn new(info: &Info, hints: Hints) -> Self {
        let server_info = |icons| ServerInfo {
            info,
            version: ProtocolVersion::MODERN,
            icons,
        };
        Self {
            meta: raw(&InMeta(server_info(false))),
            discover_meta: raw(&InMeta(server_info(true))),
            server_info: raw(&server_info(false)),
            hints,
        }
    }

    /// Every 2026-07-28 result's `_meta`.
    pub(crate) fn meta(&self) -> &RawValue {
        &self.meta
    }

    /// `server/discover`'s `_meta`, the server's icons included.
    pub(crate) fn discover_meta(&self) -> &RawValue {
        &self.discover_meta
    }

    /// The server's `serverInfo`, for a result with more in its `_meta`.
    pub(crate) fn server_info(&self) -> &RawValue {
        &self.server_info
    }
}

/// The server's info under its `_meta` key.
struct InMeta<'a>(ServerInfo<'a>);

impl Serialize for InMeta<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(SERVER_INFO, &self.0)?;
        map.end()
    }
}

/// A value serialized once, when the server is built: strings only, so
/// it always serializes.
fn raw<T: Serialize>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).expect("the server's info serializes")
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
