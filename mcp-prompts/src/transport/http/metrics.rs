//! `/metrics`: the server's metrics for a Prometheus scrape (feature
//! `otel`), beside the probes when the options hold them, or mounted in an
//! app of your own. A scrape is written off the runtime's threads, one at
//! a time, and stands for a second: scrapers that come meanwhile get it,
//! so anyone who reaches the port costs at most one encoding a second.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::Mutex;

use crate::telemetry::otel::prometheus::Prometheus;

/// How long one scrape's text stands for the next.
const FRESH_FOR: Duration = Duration::from_secs(1);

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
        let scrapes = Scrapes {
            metrics: self.clone(),
            last: Arc::new(Mutex::new(None)),
        };
        Router::new()
            .route("/metrics", get(scrape))
            .with_state(scrapes)
    }
}

/// The metrics, and the last scrape's text with when it was written.
#[derive(Clone)]
struct Scrapes {
    metrics: Prometheus,
    last: Arc<Mutex<Option<(Instant, Bytes)>>>,
}

async fn scrape(State(scrapes): State<Scrapes>) -> Response {
    let mut last = scrapes.last.lock().await;
    let text = match &*last {
        Some((at, text)) if at.elapsed() < FRESH_FOR => text.clone(),
        _ => {
            let metrics = scrapes.metrics.clone();
            match tokio::task::spawn_blocking(move || metrics.text()).await {
                Ok(text) => {
                    let text = Bytes::from(text);
                    *last = Some((Instant::now(), text.clone()));
                    text
                }
                Err(_) => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
            }
        }
    };
    let headers = [
        (header::CONTENT_TYPE, Prometheus::CONTENT_TYPE),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (headers, text).into_response()
}
