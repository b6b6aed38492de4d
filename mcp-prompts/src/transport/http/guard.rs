//! Checks every request passes before it reaches a session: `Host` and
//! `Origin` (DNS rebinding), and the `MCP-Protocol-Version` header.

use axum::http::{HeaderMap, HeaderValue, header};

use super::options::{HostPolicy, HttpOptions};
use crate::protocol::ProtocolVersion;

const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// Why a request was refused before it reached a session.
pub(crate) enum Refusal {
    Host,
    Origin,
    Version(String),
}

/// Checks `Host` (or, for HTTP/2, the request's authority) and `Origin`.
/// A missing `Origin` is allowed (it is what non-browser clients send); a
/// request naming no host at all is HTTP/1.0 and allowed; a host that is
/// not plain text is refused.
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
    if let Some(host) = host {
        if !host_allowed(&hostname(host), &options.hosts) {
            return Err(Refusal::Host);
        }
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default().to_ascii_lowercase();
    let listed = options.origins.contains(&origin);
    let authority = origin.split_once("://").map(|(_, rest)| rest);
    // With any host allowed, only listed origins pass: a rebinding page is
    // always same-origin with the name it rebinds.
    let allowed = listed
        || match (&options.hosts, authority) {
            (HostPolicy::Local(_), Some(authority)) => {
                host_allowed(&hostname(authority), &options.hosts)
            }
            _ => false,
        };
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
    let Some(value) = headers.get("mcp-protocol-version") else {
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

/// The host name of a `Host` header or an origin's authority, without
/// port, lowercased: `[::1]:8080` -> `[::1]`, `Example.com:80` -> `example.com`.
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
    host.is_some_and(|host| LOOPBACK.contains(&hostname(host).as_str()))
}

fn hostname(authority: &str) -> String {
    let host = if authority.starts_with('[') {
        authority
            .find(']')
            .map_or(authority, |end| &authority[..=end])
    } else {
        authority.split(':').next().unwrap_or_default()
    };
    host.to_ascii_lowercase()
}

fn host_allowed(host: &str, policy: &HostPolicy) -> bool {
    match policy {
        HostPolicy::Any => true,
        HostPolicy::Local(extra) => LOOPBACK.contains(&host) || extra.iter().any(|h| h == host),
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
    fn session_ids_are_random_visible_ascii() {
        let a = new_session_id().unwrap();
        let b = new_session_id().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert!(a.as_bytes().iter().all(|b| (0x21..=0x7e).contains(b)));
    }
}
