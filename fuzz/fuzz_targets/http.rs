//! One HTTP request into the Streamable HTTP endpoint: the method from the
//! first byte, then header lines (`name: value`) up to a blank line, then
//! the body. Whatever arrives, the endpoint answers without panicking.
#![no_main]

mod common;

use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Method, Request};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use mcp_prompts::HttpOptions;
use tower::ServiceExt;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let method =
        [Method::POST, Method::GET, Method::DELETE, Method::PUT][usize::from(which % 4)].clone();
    let split = rest
        .windows(2)
        .position(|w| w == b"\n\n")
        .unwrap_or(rest.len());
    let (head, body) = rest.split_at(split);
    let body = body.get(2..).unwrap_or_default().to_vec();
    let mut request = Request::builder()
        .method(method)
        .uri("/mcp")
        .header("host", "127.0.0.1");
    for line in head.split(|&b| b == b'\n') {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(&line[..colon]),
            HeaderValue::from_bytes(line[colon + 1..].trim_ascii()),
        ) else {
            continue;
        };
        request = request.header(name, value);
    }
    let Ok(request) = request.body(Body::from(body)) else {
        return;
    };
    let options = if which & 0x80 == 0 {
        HttpOptions::new()
    } else {
        HttpOptions::new().stateless()
    };
    let router = common::service().http_router("/mcp", options);
    common::runtime().block_on(async {
        let response = router.oneshot(request).await.unwrap();
        // An event stream stays open for a GET; read only what is there.
        if response
            .headers()
            .get("content-type")
            .is_some_and(|t| t == "text/event-stream")
        {
            return;
        }
        let _ = response.into_body().collect().await;
    });
});
