//! What a request came over, as telemetry names it: the transport, and on
//! HTTP the protocol version, the peer, the session and the request's own
//! trace headers.

use std::net::{IpAddr, SocketAddr};
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
    /// in its `_meta`). Read only where they can be exported.
    #[cfg(feature = "otel")]
    pub(super) trace: Option<(String, Option<String>)>,
}

impl HttpNetwork {
    /// The client's IP address as text. An IPv4 address is written a
    /// number at a time: through `Display`, its four numbers each go
    /// through the formatter's padding, some 1,300 instructions a request.
    pub(super) fn client_address(&self) -> Option<String> {
        Some(match self.client?.ip() {
            IpAddr::V4(ip) => {
                let mut text = String::with_capacity(15);
                for (at, number) in ip.octets().into_iter().enumerate() {
                    if at > 0 {
                        text.push('.');
                    }
                    text.push_str(itoa::Buffer::new().format(number));
                }
                text
            }
            ip @ IpAddr::V6(_) => ip.to_string(),
        })
    }
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

    /// An HTTP request's: its HTTP `version` (named `1.1`, `2`), its peer
    /// where known, and its session and trace headers; `network.transport =
    /// tcp`.
    #[cfg(any(feature = "http", feature = "rmcp"))]
    pub(crate) fn http_request(
        version: http::Version,
        client: Option<SocketAddr>,
        headers: &http::HeaderMap,
    ) -> Self {
        use http::HeaderName;
        // Names made once: a name given as text is parsed again for every
        // lookup.
        static SESSION: HeaderName = HeaderName::from_static("mcp-session-id");
        #[cfg(feature = "otel")]
        static PARENT: HeaderName = HeaderName::from_static("traceparent");
        #[cfg(feature = "otel")]
        static STATE: HeaderName = HeaderName::from_static("tracestate");
        let header = |name: &HeaderName| {
            let value = headers.get(name)?;
            value.to_str().ok().map(str::to_owned)
        };
        let facts = HttpNetwork {
            version: match version {
                http::Version::HTTP_2 => "2",
                http::Version::HTTP_3 => "3",
                http::Version::HTTP_10 => "1.0",
                _ => "1.1",
            },
            client,
            session: header(&SESSION),
            #[cfg(feature = "otel")]
            trace: header(&PARENT).map(|parent| (parent, header(&STATE))),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_address_reads_as_std_writes_it() {
        for address in [
            "0.0.0.0:1",
            "127.0.0.1:8080",
            "10.20.3.255:9",
            "255.255.255.255:65535",
            "[::1]:443",
            "[::ffff:192.0.2.7]:80",
            "[2001:db8::8a2e:370:7334]:80",
        ] {
            let client: SocketAddr = address.parse().unwrap();
            let facts = HttpNetwork {
                client: Some(client),
                ..HttpNetwork::default()
            };
            assert_eq!(facts.client_address(), Some(client.ip().to_string()));
        }
        assert_eq!(HttpNetwork::default().client_address(), None);
    }
}
