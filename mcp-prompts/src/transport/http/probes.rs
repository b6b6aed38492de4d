//! What a load balancer or Kubernetes asks of an HTTP server: `/healthz`
//! (the process is alive) and `/readyz` (it takes requests: 503 once a
//! shutdown begins, while it still serves those sent before its probe
//! failed, and while the application's own check fails), outside
//! authorization and never logged as requests, with `/metrics` beside
//! them when asked for; and the 503 an MCP request gets once the endpoint
//! has shut down.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::body::json_response;
use super::respond::Endpoint;
use crate::error::Error;
use crate::protocol::jsonrpc::failure;

/// `/healthz` and `/readyz` for `endpoint`, and `/metrics` if its
/// options hold them.
pub(super) fn routes(endpoint: Arc<Endpoint>) -> Router {
    // The metrics name the prompts: a page rebinding a name to this
    // server's address must not read them (the probes say nothing).
    #[cfg(feature = "otel")]
    let metrics = endpoint.options.metrics.as_ref().map(|metrics| {
        let same_host = axum::middleware::from_fn_with_state(Arc::clone(&endpoint), own_hosts_only);
        metrics.router().route_layer(same_host)
    });
    let probes = Router::new()
        .route("/healthz", get(alive))
        .route("/readyz", get(ready))
        .with_state(endpoint);
    #[cfg(feature = "otel")]
    if let Some(metrics) = metrics {
        return probes.merge(metrics);
    }
    probes
}

/// Refuses a request whose `Host` or `Origin` the endpoint refuses: 403.
#[cfg(feature = "otel")]
async fn own_hosts_only(
    State(endpoint): State<Arc<Endpoint>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let authority = request
        .uri()
        .authority()
        .map(axum::http::uri::Authority::as_str);
    if super::guard::check_origin(request.headers(), authority, &endpoint.options).is_err() {
        return plain(StatusCode::FORBIDDEN, "forbidden\n");
    }
    next.run(request).await
}

async fn alive() -> Response {
    plain(StatusCode::OK, "ok\n")
}

async fn ready(State(endpoint): State<Arc<Endpoint>>) -> Response {
    if !endpoint.is_ready() {
        return plain(StatusCode::SERVICE_UNAVAILABLE, "draining\n");
    }
    match &endpoint.options.ready_check {
        Some(check) if !check.passes().await => {
            plain(StatusCode::SERVICE_UNAVAILABLE, "not ready\n")
        }
        _ => plain(StatusCode::OK, "ready\n"),
    }
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    let no_store = [(header::CACHE_CONTROL, "no-store")];
    (status, no_store, text).into_response()
}

/// An MCP request's refusal once the endpoint has shut down: 503, with a
/// JSON-RPC error naming no request, so a client retries elsewhere. Each
/// handler asks first, which costs a request nothing like a middleware
/// layer's boxed service and future.
pub(super) fn shut_down_refusal(endpoint: &Endpoint) -> Option<Response> {
    endpoint.is_shut_down().then(|| {
        let error = Error::internal("the server is shutting down; try again");
        json_response(StatusCode::SERVICE_UNAVAILABLE, failure(None, &error))
    })
}

/// [`shut_down_refusal`] as a layer, for where it must come before
/// another layer (token verification).
#[cfg(feature = "auth")]
pub(super) async fn refuse_when_shut_down(
    State(endpoint): State<Arc<Endpoint>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match shut_down_refusal(&endpoint) {
        Some(refused) => refused,
        None => next.run(request).await,
    }
}
