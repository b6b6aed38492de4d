//! The conventions' two server metrics: `mcp.server.operation.duration`
//! per request and notification, `mcp.server.session.duration` per
//! session, both histograms in seconds with the conventions' buckets.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use opentelemetry::KeyValue;
use opentelemetry::metrics::Histogram;

use crate::protocol::ProtocolVersion;
use crate::telemetry::network::Network;

/// The bucket boundaries the conventions give both histograms, in
/// seconds (the SDK's defaults are for milliseconds).
pub(crate) const BUCKETS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// Whether the duration histograms are recorded: off until a meter
/// provider is set up for them, so that a binary built with `otel` but
/// exporting nothing times nothing.
static RECORDING: AtomicBool = AtomicBool::new(false);

/// Whether the duration histograms are recorded.
pub(crate) fn metrics_on() -> bool {
    RECORDING.load(Ordering::Relaxed)
}

/// Records the duration histograms from now on, with the global meter
/// provider (set it first).
pub(crate) fn record_metrics() {
    RECORDING.store(true, Ordering::Relaxed);
}

struct Instruments {
    operation: Histogram<f64>,
    session: Histogram<f64>,
}

/// The instruments, made from the global meter provider when first used:
/// set it (as `telemetry::init` does) before serving.
fn instruments() -> &'static Instruments {
    static INSTRUMENTS: OnceLock<Instruments> = OnceLock::new();
    INSTRUMENTS.get_or_init(|| {
        let meter = opentelemetry::global::meter("mcp-prompts");
        Instruments {
            operation: meter
                .f64_histogram("mcp.server.operation.duration")
                .with_unit("s")
                .with_description("MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.")
                .with_boundaries(BUCKETS.to_vec())
                .build(),
            session: meter
                .f64_histogram("mcp.server.session.duration")
                .with_unit("s")
                .with_description("The duration of the MCP session as observed on the MCP server.")
                .with_boundaries(BUCKETS.to_vec())
                .build(),
        }
    })
}

/// One operation's duration and the attributes it is recorded with: none
/// of unbounded cardinality (no request id, no session id, no URI, and a
/// prompt's or tool's name only when its caller may see it).
pub(crate) struct Operation<'a> {
    /// One of the methods we know, or `other`: never a client's text.
    pub(in crate::telemetry) method: &'static str,
    pub(in crate::telemetry) target: Option<(&'static str, &'a str)>,
    pub(in crate::telemetry) error_type: Option<&'a str>,
    pub(in crate::telemetry) status_code: Option<i64>,
    pub(in crate::telemetry) version: Option<&'static str>,
    pub(in crate::telemetry) wire: &'a Network,
    pub(in crate::telemetry) seconds: f64,
}

/// Records `mcp.server.operation.duration`.
pub(crate) fn record_operation(operation: &Operation<'_>) {
    let mut attributes = Vec::with_capacity(8);
    attributes.push(KeyValue::new("mcp.method.name", operation.method));
    if let Some((key, name)) = operation.target {
        attributes.push(KeyValue::new(key, name.to_owned()));
    }
    if let Some(error_type) = operation.error_type {
        attributes.push(KeyValue::new("error.type", error_type.to_owned()));
    }
    if let Some(code) = operation.status_code {
        attributes.push(KeyValue::new("rpc.response.status_code", code.to_string()));
    }
    push_common(&mut attributes, operation.version, operation.wire);
    instruments()
        .operation
        .record(operation.seconds, &attributes);
}

fn push_common(attributes: &mut Vec<KeyValue>, version: Option<&'static str>, wire: &Network) {
    if let Some(version) = version {
        attributes.push(KeyValue::new("mcp.protocol.version", version));
    }
    if let Some(transport) = wire.transport() {
        attributes.push(KeyValue::new("network.transport", transport));
    }
    if let Some(http) = wire.http() {
        attributes.push(KeyValue::new("network.protocol.name", "http"));
        attributes.push(KeyValue::new("network.protocol.version", http.version));
    }
}

/// A session's length, recorded as `mcp.server.session.duration` when it
/// ends (its client's DELETE, its expiry, the end of stdin), if it was
/// ever opened by `initialize`.
#[derive(Default)]
pub(crate) struct SessionClock(OnceLock<Opened>);

struct Opened {
    at: Instant,
    version: &'static str,
    wire: Network,
}

impl SessionClock {
    /// The session's `initialize` succeeded, in `version`, over `wire`.
    pub(crate) fn open(&self, version: ProtocolVersion, wire: &Network) {
        if !metrics_on() {
            return;
        }
        let _ = self.0.set(Opened {
            at: Instant::now(),
            version: version.as_str(),
            wire: wire.clone(),
        });
    }
}

impl Drop for SessionClock {
    fn drop(&mut self) {
        if let Some(opened) = self.0.get() {
            let mut attributes = Vec::with_capacity(4);
            push_common(&mut attributes, Some(opened.version), &opened.wire);
            instruments()
                .session
                .record(opened.at.elapsed().as_secs_f64(), &attributes);
        }
    }
}
