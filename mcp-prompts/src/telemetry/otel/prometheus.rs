//! The server's metrics for a Prometheus scrape: the same instruments the
//! OTLP export sends, read by a second reader into a registry of their
//! own, and written in Prometheus' text format when asked.

use std::fmt;

use prometheus::{Encoder as _, Registry, TextEncoder};

use super::setup::OtelError;

/// The metrics, ready for a scrape ([`Otel::prometheus`](crate::otel::Otel::prometheus)):
/// the ready listener serves them at `/metrics` when
/// [`HttpOptions::metrics`](crate::HttpOptions::metrics) is given them, and
/// [`router`](Self::router) mounts them in an app of your own.
///
/// ```no_run
/// # fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let otel = mcp_prompts::otel::Otel::builder("my-prompts").prometheus().init("warn")?;
/// let metrics = otel.prometheus().expect("asked for");
/// assert!(metrics.text().contains("target_info"));
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Prometheus {
    registry: Registry,
}

impl fmt::Debug for Prometheus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prometheus").finish_non_exhaustive()
    }
}

impl Prometheus {
    /// The content type of [`text`](Self::text): Prometheus' text format.
    pub const CONTENT_TYPE: &'static str = "text/plain; version=0.0.4; charset=utf-8";

    /// A registry, and the reader that fills it from the meter provider.
    pub(super) fn new() -> Result<(Self, opentelemetry_prometheus::PrometheusExporter), OtelError> {
        let registry = Registry::new();
        let reader = opentelemetry_prometheus::exporter()
            .with_registry(registry.clone())
            .build()
            .map_err(|err| OtelError::new(format!("the Prometheus reader: {err}")))?;
        Ok((Self { registry }, reader))
    }

    /// Every metric as it stands, in Prometheus' text format
    /// ([`CONTENT_TYPE`](Self::CONTENT_TYPE)).
    pub fn text(&self) -> String {
        let mut text = Vec::new();
        // Writing to a Vec fails only on a metric the registry itself
        // refused to hold; what was written is served.
        if let Err(err) = TextEncoder::new().encode(&self.registry.gather(), &mut text) {
            tracing::warn!(%err, "a metric could not be written for Prometheus");
        }
        String::from_utf8(text).unwrap_or_default()
    }
}
