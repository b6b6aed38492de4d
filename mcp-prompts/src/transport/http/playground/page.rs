//! The page, its script and its style, with the headers that keep
//! untrusted prompt text inert.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// Only the page's own script and style, images only as `data:` URIs,
/// requests only to its own origin; no frames, forms or base URL; and no
/// string ever parsed as HTML by the script (trusted types with no policy:
/// the browser refuses `innerHTML` and its kind outright).
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
                      img-src data:; connect-src 'self'; form-action 'none'; \
                      frame-ancestors 'none'; base-uri 'none'; \
                      require-trusted-types-for 'script'; trusted-types 'none'";

const HTML: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/playground.js");
const STYLE: &str = include_str!("assets/playground.css");

/// The page's HTML, with where the endpoint is (relative to the page) and
/// what the server does written into its `<body>`.
pub(super) struct Page {
    html: String,
}

impl Page {
    /// `command` starts "copy as command"'s line; without one the page
    /// offers none.
    pub(super) fn new(mcp_path: &str, command: Option<&str>, checks_tokens: bool) -> Self {
        let command = match command {
            Some(command) => format!(" data-command=\"{}\"", attribute(command)),
            None => String::new(),
        };
        let body = format!(
            "<body data-endpoint=\"{}\"{command} data-auth=\"{checks_tokens}\">",
            attribute(mcp_path),
        );
        Self {
            html: HTML.replacen("<body>", &body, 1),
        }
    }
}

/// `text` safe inside a double-quoted HTML attribute.
fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

fn asset(content_type: &'static str, body: impl Into<Body>) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.into(),
    )
        .into_response()
}

pub(super) async fn html(State(page): State<Arc<Page>>) -> Response {
    asset("text/html; charset=utf-8", page.html.clone())
}

pub(super) async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

pub(super) async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_says_where_the_endpoint_is_escaped() {
        let page = Page::new("/a\"b", Some("x <render> & go"), true);
        assert!(page.html.contains(
            "<body data-endpoint=\"/a&quot;b\" data-command=\"x &lt;render&gt; &amp; go\" data-auth=\"true\">"
        ));
    }

    #[test]
    fn without_a_command_the_body_names_none() {
        let page = Page::new("mcp", None, false);
        assert!(
            page.html
                .contains("<body data-endpoint=\"mcp\" data-auth=\"false\">")
        );
    }
}
