//! The Protected Resource Metadata document (RFC 9728), which tells a
//! client that got a `401` where to get a token and with which scopes.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use axum::routing::get;
use serde_json::json;

use super::HttpAuth;
use crate::transport::http::body::json_response;

/// RFC 9728's well-known prefix.
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// A URL's origin (`scheme://authority`) and its path (`""` for none or
/// `/`), split by hand: a URL type would add a trailing slash, and the
/// resource must stay exactly as configured.
pub(super) fn split_url(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => {
            let (origin, path) = url.split_at(after_scheme + i);
            (origin, path.trim_end_matches('/'))
        }
        None => (url, ""),
    }
}

/// The metadata's path for a resource at `path`: the well-known prefix,
/// then the path (RFC 9728 §3.1).
pub(super) fn well_known_path(path: &str) -> String {
    format!("{WELL_KNOWN}{path}")
}

/// Serves the document at the path-suffixed form and at the root form
/// (MCP clients try both).
pub(super) fn router(auth: Arc<HttpAuth>) -> Router {
    let (_, path) = split_url(&auth.resource);
    let mut router = Router::new().route(WELL_KNOWN, get(document));
    if !path.is_empty() {
        router = router.route(&well_known_path(path), get(document));
    }
    router.with_state(auth)
}

async fn document(State(auth): State<Arc<HttpAuth>>) -> Response {
    let mut scopes: Vec<String> = auth
        .required_scopes
        .iter()
        .chain(&auth.scopes_supported)
        .cloned()
        .collect();
    if let Some(service) = &auth.service {
        let served = service.snapshot();
        let required = served.restricted().flat_map(|(_, scopes)| scopes);
        scopes.extend(required.map(str::to_owned));
    }
    // 2026-07-28: servers SHOULD NOT advertise `offline_access`.
    scopes.retain(|s| s != "offline_access");
    scopes.sort_unstable();
    scopes.dedup();
    let mut document = json!({
        "resource": auth.resource,
        "authorization_servers": auth.authorization_servers,
        "scopes_supported": scopes,
        "bearer_methods_supported": ["header"],
    });
    if let Some(name) = &auth.resource_name {
        document["resource_name"] = json!(name);
    }
    let mut response = json_response(StatusCode::OK, document.to_string());
    // Public, and fetched by browser clients from other origins.
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_urls_without_adding_slashes() {
        assert_eq!(
            split_url("https://a.example/public/mcp"),
            ("https://a.example", "/public/mcp")
        );
        assert_eq!(
            split_url("http://127.0.0.1:8080/mcp/"),
            ("http://127.0.0.1:8080", "/mcp")
        );
        assert_eq!(split_url("https://a.example"), ("https://a.example", ""));
        assert_eq!(split_url("https://a.example/"), ("https://a.example", ""));
        assert_eq!(
            well_known_path("/mcp"),
            "/.well-known/oauth-protected-resource/mcp"
        );
    }
}
