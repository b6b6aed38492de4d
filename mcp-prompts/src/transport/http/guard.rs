//! Checks every request passes before it reaches a session: `Host` and
//! `Origin` (DNS rebinding), and the `MCP-Protocol-Version` header.

use std::borrow::Cow;

use axum::http::{HeaderMap, HeaderName, HeaderValue, header};

use super::options::{HostPolicy, HttpOptions};
use crate::protocol::ProtocolVersion;

const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// `Mcp-Session-Id`, made once: a name given as text is parsed at every
/// lookup.
pub(crate) static SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

/// `MCP-Protocol-Version`, made once.
static PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");

/// Why a request was refused before it reached a session.
pub(crate) enum Refusal {
    Host,
    Origin,
    Version(String),
}

/// Checks `Host` (or, for HTTP/2, the request's authority) and `Origin`.
/// A missing `Origin` is allowed (it is what non-browser clients send); a
/// request naming no host at all is HTTP/1.0 and allowed; a host that is
/// not plain text, and an `Origin` or (unless any host is allowed) a host
/// that a URL parser does not read back exactly, are refused.
pub(crate) fn check_origin(
    headers: &HeaderMap,
    authority: Option<&str>,
    options: &HttpOptions,
) -> Result<(), Refusal> {
    let mut hosts = headers.get_all(header::HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        // Two `Host` headers: which one names the server is ambiguous.
        (Some(_), Some(_)) => return Err(Refusal::Host),
        (Some(value), None) => Some(value.to_str().map_err(|_| Refusal::Host)?),
        (None, _) => authority,
    };
    if let (Some(host), HostPolicy::Local(_)) = (host, &options.hosts) {
        if !host_allowed(hostname(host).as_deref(), &options.hosts) {
            return Err(Refusal::Host);
        }
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default().to_ascii_lowercase();
    // A malformed origin is refused even when listed: what it names
    // depends on who reads it.
    let Some(host) = origin_host(&origin) else {
        return Err(Refusal::Origin);
    };
    // With any host allowed, only listed origins pass: a rebinding page is
    // always same-origin with the name it rebinds.
    let allowed = options.origins.contains(&origin)
        || (matches!(options.hosts, HostPolicy::Local(_))
            && host_allowed(Some(&host), &options.hosts));
    if allowed {
        Ok(())
    } else {
        Err(Refusal::Origin)
    }
}

/// The `MCP-Protocol-Version` header's revision: any supported one (it may
/// differ from the negotiated one); `None` when absent. An unknown value
/// is refused.
pub(crate) fn header_version(headers: &HeaderMap) -> Result<Option<ProtocolVersion>, Refusal> {
    let Some(value) = headers.get(&PROTOCOL_VERSION) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default();
    ProtocolVersion::parse(text)
        .map(Some)
        .ok_or_else(|| Refusal::Version(text.to_owned()))
}

/// Whether the client takes an event stream in answer to a POST.
pub(crate) fn accepts_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("text/event-stream") || v.contains("*/*"))
}

/// Whether the request names a loopback host (`localhost`, `127.0.0.1`,
/// `[::1]`) in `Host` (or, for HTTP/2, its authority): what a browser on
/// this machine sends, and a rebinding name or a proxy's public name does
/// not.
#[cfg(feature = "playground")]
pub(crate) fn names_loopback(headers: &HeaderMap, authority: Option<&str>) -> bool {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .or(authority);
    host.is_some_and(|host| hostname(host).is_some_and(|name| LOOPBACK.contains(&name.as_ref())))
}

/// The host name a `Host` header (or an authority) names, without port,
/// lowercased: `[::1]:8080` -> `[::1]`, `Example.com:80` -> `example.com`;
/// `None` when it is no plain `host[:port]`.
fn hostname(authority: &str) -> Option<Cow<'_, str>> {
    // What every client sends, a lowercase name or address and a port, is
    // read without allocating; the rest goes through the URL parser.
    plain_host(authority).map(Cow::Borrowed).or_else(|| {
        origin_host(&format!("http://{}", authority.to_ascii_lowercase())).map(Cow::Owned)
    })
}

/// The host of `authority` when it is plainly `name[:port]` or
/// `[v6][:port]` in lowercase, which every URL parser reads the same way.
fn plain_host(authority: &str) -> Option<&str> {
    let (host, port) = match authority.strip_prefix('[') {
        Some(rest) => {
            let end = rest.find(']')?;
            let host = &authority[..end + 2];
            let inside = &rest[..end];
            if !inside
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f' | b':' | b'.'))
            {
                return None;
            }
            (host, &authority[end + 2..])
        }
        None => {
            let end = authority.find(':').unwrap_or(authority.len());
            let host = &authority[..end];
            if host.is_empty()
                || !host
                    .bytes()
                    .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-'))
            {
                return None;
            }
            (host, &authority[end..])
        }
    };
    let port_ok = port.is_empty()
        || port.strip_prefix(':').is_some_and(|digits| {
            (1..=5).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
        });
    port_ok.then_some(host)
}

/// The host of `origin`, a lowercased `scheme://host[:port]`, as a URL
/// parser (the WHATWG rules browsers follow) reads it; `None` unless the
/// parser reads back exactly that text, port or not for the scheme's
/// default. So nothing a hand split would read one way and a browser
/// another passes: user info (`http://127.0.0.1@evil.example`), two ports,
/// text after an IPv6 address (`http://[::1]evil.example`), a path, a host
/// spelled otherwise (`127.1`, `%6c`, a tab), or `null`.
fn origin_host(origin: &str) -> Option<String> {
    let url = url::Url::parse(origin).ok()?;
    let host = url.host_str()?;
    let spelled = |port: Option<u16>| match port {
        Some(port) => format!("{}://{host}:{port}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    };
    let exact = spelled(url.port()) == origin || spelled(url.port_or_known_default()) == origin;
    exact.then(|| host.to_owned())
}

/// Whether `host` may be named; a host that is no plain name passes only
/// when any host may.
fn host_allowed(host: Option<&str>, policy: &HostPolicy) -> bool {
    match policy {
        HostPolicy::Any => true,
        HostPolicy::Local(extra) => {
            host.is_some_and(|host| LOOPBACK.contains(&host) || extra.iter().any(|h| h == host))
        }
    }
}

/// A session id: 32 random bytes from the operating system, hex-encoded
/// (visible ASCII, as the specification requires).
pub(crate) fn new_session_id() -> Result<HeaderValue, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let hex: String = bytes
        .iter()
        .flat_map(|b| [b >> 4, b & 0xf])
        .map(|nibble| char::from_digit(u32::from(nibble), 16).unwrap_or('0'))
        .collect();
    Ok(HeaderValue::from_str(&hex).unwrap_or_else(|_| HeaderValue::from_static("invalid")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| (k.clone(), HeaderValue::from_str(v).unwrap()))
            .collect()
    }

    #[test]
    fn loopback_hosts_and_origins_pass_by_default() {
        let options = HttpOptions::new();
        for host in ["localhost:3000", "127.0.0.1:8080", "[::1]:1", "LOCALHOST"] {
            assert!(
                check_origin(&headers(&[(header::HOST, host)]), None, &options).is_ok(),
                "{host}"
            );
        }
        let twice = headers(&[
            (header::HOST, "localhost:3000"),
            (header::HOST, "evil.example.com"),
        ]);
        assert!(matches!(
            check_origin(&twice, None, &options),
            Err(Refusal::Host)
        ));
        let evil = headers(&[(header::HOST, "evil.example.com")]);
        assert!(matches!(
            check_origin(&evil, None, &options),
            Err(Refusal::Host)
        ));
        let evil_origin = headers(&[
            (header::HOST, "localhost:3000"),
            (header::ORIGIN, "http://evil.example.com"),
        ]);
        assert!(matches!(
            check_origin(&evil_origin, None, &options),
            Err(Refusal::Origin)
        ));
        let local_origin = headers(&[
            (header::HOST, "localhost:3000"),
            (header::ORIGIN, "http://localhost:5173"),
        ]);
        assert!(check_origin(&local_origin, None, &options).is_ok());
    }

    #[test]
    fn any_host_takes_only_listed_origins() {
        let options = HttpOptions::new()
            .allow_any_host()
            .allow_origins(["https://app.example.com"]);
        let listed = headers(&[
            (header::HOST, "prompts.example.com"),
            (header::ORIGIN, "https://app.example.com"),
        ]);
        assert!(check_origin(&listed, None, &options).is_ok());
        let no_origin = headers(&[(header::HOST, "prompts.example.com")]);
        assert!(check_origin(&no_origin, None, &options).is_ok());
        // A rebinding page is same-origin with the name it rebinds.
        let rebinding = headers(&[
            (header::HOST, "evil.example.com:8080"),
            (header::ORIGIN, "http://evil.example.com:8080"),
        ]);
        assert!(check_origin(&rebinding, None, &options).is_err());
    }

    #[test]
    fn hosts_can_be_named_again_and_h2_authority_counts() {
        let options = HttpOptions::new()
            .allow_any_host()
            .allow_hosts(["prompts.example.com"]);
        assert!(
            check_origin(
                &headers(&[(header::HOST, "prompts.example.com")]),
                None,
                &options
            )
            .is_ok()
        );
        assert!(
            check_origin(
                &headers(&[(header::HOST, "other.example.com")]),
                None,
                &options
            )
            .is_err()
        );
        let loopback = HttpOptions::new();
        assert!(check_origin(&HeaderMap::new(), Some("evil.example.com:443"), &loopback).is_err());
        assert!(check_origin(&HeaderMap::new(), Some("localhost:443"), &loopback).is_ok());
        let mut binary = HeaderMap::new();
        binary.insert(
            header::HOST,
            HeaderValue::from_bytes(b"local\xffhost").unwrap(),
        );
        assert!(matches!(
            check_origin(&binary, None, &loopback),
            Err(Refusal::Host)
        ));
    }

    #[test]
    fn malformed_origins_and_hosts_name_nothing() {
        let options = HttpOptions::new();
        let listed = HttpOptions::new().allow_origins(["null", "http://localhost:80:80"]);
        for origin in [
            "http://[::1]evil.example",
            "http://localhost:80:80",
            "http://127.0.0.1@evil.example",
            "http://evil.example@localhost",
            "http://localhost:5173/",
            "http://127.1",
            "http://%6cocalhost",
            "http://local\thost",
            "null",
            "",
        ] {
            let sent = headers(&[(header::HOST, "localhost"), (header::ORIGIN, origin)]);
            for options in [&options, &listed] {
                assert!(
                    matches!(check_origin(&sent, None, options), Err(Refusal::Origin)),
                    "{origin:?}"
                );
            }
        }
        for origin in [
            "http://[::1]:8080",
            "HTTP://LocalHost",
            "http://localhost:80",
        ] {
            let sent = headers(&[(header::HOST, "localhost"), (header::ORIGIN, origin)]);
            assert!(check_origin(&sent, None, &options).is_ok(), "{origin}");
        }
        for host in [
            "[::1]evil.example",
            "localhost:80:80",
            "evil.example@localhost",
        ] {
            let sent = headers(&[(header::HOST, host)]);
            assert!(
                matches!(check_origin(&sent, None, &options), Err(Refusal::Host)),
                "{host}"
            );
            #[cfg(feature = "playground")]
            assert!(!names_loopback(&sent, None), "{host}");
        }
        #[cfg(feature = "playground")]
        assert!(names_loopback(
            &headers(&[(header::HOST, "[::1]:80")]),
            None
        ));
        // What clients send is read in place; the rest by the URL parser.
        for (host, name) in [
            ("localhost:8080", "localhost"),
            ("[::1]:80", "[::1]"),
            ("127.0.0.1", "127.0.0.1"),
        ] {
            assert!(
                matches!(hostname(host), Some(Cow::Borrowed(n)) if n == name),
                "{host}"
            );
        }
        assert!(matches!(hostname("LocalHost:1"), Some(Cow::Owned(n)) if n == "localhost"));
        for malformed in [
            "[::1]x",
            "localhost:",
            "localhost:123456",
            "[::1]:80:80",
            "a b",
        ] {
            assert!(plain_host(malformed).is_none(), "{malformed}");
        }
    }

    #[test]
    fn session_ids_are_random_visible_ascii() {
        let a = new_session_id().unwrap();
        let b = new_session_id().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert!(a.as_bytes().iter().all(|b| (0x21..=0x7e).contains(b)));
    }
}
