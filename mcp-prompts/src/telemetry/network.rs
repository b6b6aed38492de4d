//! What a request came over, as telemetry names it: the transport, and on
//! HTTP the protocol version, the peer, the session and the request's own
//! trace headers.

use std::net::SocketAddr;
use std::sync::Arc;

/// The transport a request arrived on, and on HTTP its facts. Cheap to
/// clone.
#[derive(Clone, Debug)]
pub(crate) struct Network {
    /// `network.transport`, where known.
    transport: Option<&'static str>,
    http: Option<Arc<HttpNetwork>>,
}

impl Default for Network {
    fn default() -> Self {
        Self::PIPE
    }
}

/// The facts of one HTTP request that its telemetry records.
#[derive(Debug, Default)]
pub(crate) struct HttpNetwork {
    /// `1.1` or `2`.
    pub(super) version: &'static str,
    /// The peer, where the listener knows it.
    pub(super) client: Option<SocketAddr>,
    /// The `Mcp-Session-Id` the request names.
    pub(super) session: Option<String>,
    /// The request's W3C trace headers (`traceparent`, `tracestate`):
    /// linked to, never the parent (the MCP request's context is the one
    /// in its `_meta`).
    #[cfg_attr(not(feature = "otel"), allow(dead_code))]
    pub(super) trace: Option<(String, Option<String>)>,
}

/// How a transport delivered what a message got: on HTTP, each is a
/// status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Delivered {
    /// A response to a request.
    Answer,
    /// An error naming no request: the message could not be read as one.
    Rejected,
    /// Nothing: a notification, or a request whose work was dropped.
    Nothing,
}

impl Network {
    /// stdio, or a stream a transport reads lines from: `network.transport
    /// = pipe`.
    pub(crate) const PIPE: Self = Self {
        transport: Some("pipe"),
        http: None,
    };

    /// Not known here (an rmcp server's transport, which rmcp owns).
    pub(crate) const UNKNOWN: Self = Self {
        transport: None,
        http: None,
    };

    /// An HTTP request's: its HTTP `version` (`1.1`, `2`), its peer where
    /// known, and its headers through `header`; `network.transport = tcp`.
    #[cfg(any(feature = "http", feature = "rmcp"))]
    pub(crate) fn http_request(
        version: &'static str,
        client: Option<SocketAddr>,
        header: impl Fn(&str) -> Option<String>,
    ) -> Self {
        let facts = HttpNetwork {
            version,
            client,
            session: header("mcp-session-id"),
            trace: header("traceparent").map(|parent| (parent, header("tracestate"))),
        };
        Self {
            transport: Some("tcp"),
            http: Some(Arc::new(facts)),
        }
    }

    /// The HTTP status that carried what was `delivered`, on HTTP.
    pub(crate) fn status(&self, delivered: Delivered) -> Option<u16> {
        self.http()?;
        Some(match delivered {
            Delivered::Answer => 200,
            Delivered::Rejected => 400,
            Delivered::Nothing => 202,
        })
    }

    /// `network.transport`, when known.
    pub(crate) fn transport(&self) -> Option<&'static str> {
        self.transport
    }

    /// The HTTP facts, on HTTP.
    pub(crate) fn http(&self) -> Option<&HttpNetwork> {
        self.http.as_deref()
    }
}
