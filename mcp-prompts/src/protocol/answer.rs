//! Typed results, before any era writes them: a handler gives one of
//! these, and the server's one writer serializes it per era, as it is in
//! a session, or in 2026-07-28's envelope (`resultType`, `_meta`, caching
//! hints on listings). Another SDK's adapter converts the same values.

use std::sync::Arc;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::ProtocolVersion;
use super::language::Language;
use super::modern::ResultType;

/// A method's result, as every era sees it.
pub(crate) trait Answer {
    /// 2026-07-28's `resultType`: final, unless the round asks for input.
    fn result_type(&self) -> ResultType {
        ResultType::Complete
    }

    /// Whether the 2026-07-28 result carries caching hints (a listing
    /// does), and with them whether it may differ by who asks.
    fn cached(&self) -> Cached {
        Cached::No
    }

    /// What its 2026-07-28 `_meta` holds besides the server's info.
    fn meta(&self) -> ResultMeta<'_> {
        ResultMeta::ServerInfo
    }

    /// Whether, though a result, it reports an error (a tool's
    /// `isError`): for telemetry, which tells it from a success.
    fn reports_error(&self) -> bool {
        false
    }

    /// The language it is in, where the request asked for one: written
    /// in its `_meta` (`io.modelcontextprotocol/contentLanguage`).
    fn content_language(&self) -> Option<&Language> {
        None
    }

    /// Its fields, as `version` shows them.
    fn body(&self, version: ProtocolVersion) -> impl Serialize + '_;

    /// The most bytes its body takes as JSON, when that is known without
    /// writing it (a file's contents, whose bound the file keeps): the
    /// server then reserves them without a pass over the body. `None`: the
    /// body is measured by writing it where nothing is kept.
    fn size_bound(&self) -> Option<usize> {
        None
    }
}

/// Whether a result carries 2026-07-28 caching hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cached {
    No,
    /// The same for everyone who may see it: the server's scope.
    Shared,
    /// It differs by who asks: private, whatever the server's scope.
    PerCaller,
}

/// What a 2026-07-28 result's `_meta` holds.
pub(crate) enum ResultMeta<'a> {
    /// The server's info, as every result carries it.
    ServerInfo,
    /// The server's info with its icons: `server/discover`'s.
    ServerInfoWithIcons,
    /// The server's info and the subscription a listen's last result ends.
    Subscription(&'a RawValue),
}

/// An empty result: `ping`, `logging/setLevel`, a listen's end.
pub(crate) struct Empty;

impl Answer for Empty {
    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        serde_json::Map::new()
    }
}

/// One page of a listing: its items serialized once (shared with the
/// snapshot they were cut from, or made for this request alone), under
/// the listing's key, and the next page's cursor.
pub(crate) struct Page {
    key: &'static str,
    items: Arc<RawValue>,
    next_cursor: Option<Arc<str>>,
    cached: Cached,
    /// The language it is in, where the request asked for one.
    language: Option<Language>,
}

impl Page {
    /// `items` (a JSON array) under `key`; `cached` says whom the page
    /// is the same for.
    pub(crate) fn new(
        key: &'static str,
        items: Arc<RawValue>,
        next_cursor: Option<Arc<str>>,
        cached: Cached,
    ) -> Self {
        Self {
            key,
            items,
            next_cursor,
            cached,
            language: None,
        }
    }

    /// The page as it is in `language`, which the request asked for: an
    /// answer that differs by the language asked is never cached for all.
    pub(crate) fn in_language(self, language: Language) -> Self {
        Self {
            language: Some(language),
            cached: match self.cached {
                Cached::Shared => Cached::PerCaller,
                other => other,
            },
            ..self
        }
    }
}

impl Answer for Page {
    fn cached(&self) -> Cached {
        self.cached
    }

    fn content_language(&self) -> Option<&Language> {
        self.language.as_ref()
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

impl Serialize for Page {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(self.key, &*self.items)?;
        if let Some(cursor) = &self.next_cursor {
            map.serialize_entry("nextCursor", &**cursor)?;
        }
        map.end()
    }
}
