//! `/metrics`: the server's metrics for a Prometheus scrape (feature
//! `otel`), beside the probes when the options hold them, or mounted in an
//! app of your own.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::telemetry::otel::prometheus::Prometheus;

impl Prometheus {
    /// A router serving the metrics at `GET /metrics`, to mount in an app
    /// of your own (behind your own authorization, if the prompt names in
    /// them are not for everyone).
    ///
    /// ```no_run
    /// # fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let otel = mcp_prompts::otel::Otel::builder("my-prompts").prometheus().init("warn")?;
    /// let service = mcp_prompts::Server::new("my-prompts", "1.0").build()?;
    /// let mcp = service.http_endpoint(mcp_prompts::HttpOptions::new());
    /// let app = mcp.router("/mcp").merge(otel.prometheus().unwrap().router());
    /// # Ok(()) }
    /// ```
    pub fn router(&self) -> Router {
        Router::new()
            .route("/metrics", get(scrape))
            .with_state(self.clone())
    }
}

async fn scrape(State(metrics): State<Prometheus>) -> Response {
    let headers = [
        (header::CONTENT_TYPE, Prometheus::CONTENT_TYPE),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (headers, metrics.text()).into_response()
}
