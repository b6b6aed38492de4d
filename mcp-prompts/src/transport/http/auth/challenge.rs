//! Reading a request's bearer token, and the answers to a request without
//! a good one (RFC 6750 §3, as MCP uses it): `401` with a
//! `WWW-Authenticate` challenge that names the Protected Resource Metadata,
//! `403 insufficient_scope`, or `503` when tokens cannot be checked now.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;

use super::{HttpAuth, TokenError};
use crate::transport::http::body::json_response;

/// The longest token read. Real access tokens are a few kilobytes; a
/// larger one is refused before any parsing or key lookup.
pub(super) const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// Why a request is not let through.
#[derive(Debug)]
pub(super) enum Challenge {
    /// No bearer token at all: the client should get one.
    Missing,
    /// A token that is not one (too long, bad characters).
    Malformed(&'static str),
    /// The verifier refused it, or could not check it.
    Token(TokenError),
    /// A valid token without every scope the server requires.
    InsufficientScope,
}

/// The token of an `Authorization: Bearer <token>` header (the scheme in
/// any case, RFC 7235); any other scheme counts as no token.
pub(super) fn bearer_token(headers: &HeaderMap) -> Result<&str, Challenge> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(Challenge::Missing);
    };
    if value.len() > MAX_TOKEN_BYTES + "Bearer ".len() {
        return Err(Challenge::Malformed("the token is too long"));
    }
    let value = value
        .to_str()
        .map_err(|_| Challenge::Malformed("the token is not ASCII"))?;
    let Some((scheme, token)) = value.split_once(' ') else {
        return Err(Challenge::Missing);
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(Challenge::Missing);
    }
    let token = token.trim_matches(' ');
    if token.is_empty() || !is_b64token(token) {
        return Err(Challenge::Malformed("the token is not a bearer token"));
    }
    Ok(token)
}

/// RFC 6750's `b64token`: `[A-Za-z0-9-._~+/]+` then any `=`.
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

impl Challenge {
    pub(super) fn response(&self, auth: &HttpAuth) -> Response {
        let metadata = auth.metadata_url();
        let required = auth.required_scopes.join(" ");
        let (status, error, description) = match self {
            Self::Missing => (
                StatusCode::UNAUTHORIZED,
                None,
                "this server needs an access token (a bearer token in `Authorization`)".to_owned(),
            ),
            Self::Malformed(why) => (
                StatusCode::UNAUTHORIZED,
                Some("invalid_token"),
                (*why).to_owned(),
            ),
            Self::Token(error) if error.is_unavailable() => {
                // The reason (the issuer's URL, its answer) is the
                // operator's to read, not any caller's.
                tracing::warn!(
                    reason = %crate::error::Escaped::new(error.reason()),
                    "access tokens cannot be verified"
                );
                let body = serde_json::json!({
                    "error": "temporarily_unavailable",
                    "error_description": "the issuer's keys are unavailable",
                });
                let mut response = json_response(StatusCode::SERVICE_UNAVAILABLE, body.to_string());
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                return response;
            }
            Self::Token(error) => (
                StatusCode::UNAUTHORIZED,
                Some("invalid_token"),
                error.reason().to_owned(),
            ),
            Self::InsufficientScope => (
                StatusCode::FORBIDDEN,
                Some("insufficient_scope"),
                format!("this server needs the scopes: {required}"),
            ),
        };
        let mut params = Vec::new();
        if let Some(error) = error {
            params.push(format!("error=\"{error}\""));
            params.push(format!("error_description=\"{}\"", quotable(&description)));
        }
        if !required.is_empty() {
            params.push(format!("scope=\"{}\"", quotable(&required)));
        }
        params.push(format!("resource_metadata=\"{}\"", quotable(&metadata)));
        let challenge = format!("Bearer {}", params.join(", "));
        let body = serde_json::json!({
            "error": error.unwrap_or("unauthorized"),
            "error_description": description,
        });
        let mut response = json_response(status, body.to_string());
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// `404` for a session another caller opened, as for one that does not
/// exist.
pub(super) fn unknown_session() -> Response {
    let error =
        crate::error::Error::invalid_request("unknown or expired session: send `initialize` again");
    json_response(
        StatusCode::NOT_FOUND,
        crate::protocol::jsonrpc::failure(None, &error),
    )
}

/// `text` fit for a quoted-string: printable ASCII without `"` or `\`
/// (RFC 6750 limits `error_description` to these).
fn quotable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            ' ' | '!' | '#'..='[' | ']'..='~' => c,
            _ => '?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(authorization: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, authorization.parse().unwrap());
        headers
    }

    #[test]
    fn reads_bearer_tokens_in_any_case_of_the_scheme() {
        assert_eq!(bearer_token(&headers("Bearer a.b.c")).unwrap(), "a.b.c");
        assert_eq!(bearer_token(&headers("bearer a-b_c~=")).unwrap(), "a-b_c~=");
        assert!(matches!(
            bearer_token(&HeaderMap::new()),
            Err(Challenge::Missing)
        ));
        assert!(matches!(
            bearer_token(&headers("Basic YTpi")),
            Err(Challenge::Missing)
        ));
        for bad in ["Bearer ", "Bearer a b", "Bearer ===", "Bearer a\"b"] {
            assert!(
                matches!(bearer_token(&headers(bad)), Err(Challenge::Malformed(_))),
                "{bad}"
            );
        }
        let long = format!("Bearer {}", "a".repeat(MAX_TOKEN_BYTES + 1));
        assert!(matches!(
            bearer_token(&headers(&long)),
            Err(Challenge::Malformed(_))
        ));
    }

    #[test]
    fn descriptions_are_quotable() {
        assert_eq!(quotable("bad \"kid\" \\ é"), "bad ?kid? ? ?");
    }
}
