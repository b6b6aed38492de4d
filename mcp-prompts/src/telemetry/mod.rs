//! What the server tells its operators: a span per request and per
//! notification in OpenTelemetry's semantic conventions for MCP, a log
//! line per request, and (feature `otel`) the conventions' duration
//! metrics, with trace context taken from each request's `_meta`.
//!
//! Everything goes through `tracing`: a binary that installs no
//! subscriber pays for none of it (one disabled-span check per request).

pub(crate) mod asked;
pub(crate) mod ended;
pub(crate) mod line;
pub(crate) mod network;
mod observation;
#[cfg(feature = "otel")]
pub(crate) mod otel;
mod outgoing;

pub(crate) use asked::{Asked, ParamsRead};
pub(crate) use ended::Ended;
pub(crate) use line::refused;
pub(crate) use network::{Delivered, Network};
pub(crate) use observation::{Observation, Visibility};
pub(crate) use outgoing::{outgoing, outgoing_failed};

/// Whether requests are timed for the metrics even when no subscriber
/// wants their span or line: once `otel` set a meter provider up (or the
/// application said it did), never without the feature.
#[inline]
fn metrics_on() -> bool {
    #[cfg(feature = "otel")]
    return otel::metrics_on();
    #[cfg(not(feature = "otel"))]
    false
}

/// Whether a request might be watched: cheap enough for every request,
/// with no subscriber (or one below `info`) it is one load and compare.
#[inline]
pub(crate) fn may_watch() -> bool {
    tracing::level_enabled!(tracing::Level::INFO) || metrics_on()
}

/// Whether a request would be watched: a span, a line or a metric wants
/// it. A transport gathers the facts of a request's wire (its peer, its
/// session, its trace headers) only then.
pub(crate) fn wanted() -> bool {
    use tracing::metadata::Kind;
    metrics_on()
        || tracing::enabled!(kind: Kind::SPAN, target: line::TARGET, tracing::Level::INFO)
        || tracing::enabled!(target: line::TARGET, tracing::Level::INFO)
}
