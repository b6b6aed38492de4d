//! The `otel` feature's part of each watch: the span's parent taken from
//! the request's `_meta` (SEP-414), an HTTP request's own trace headers as
//! a link, and the conventions' two duration histograms. [`setup`] builds
//! the exporters the standard `OTEL_*` variables describe.

mod cut;
mod metrics;
pub(crate) mod prometheus;
pub(crate) mod setup;

use opentelemetry::Context;
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::TraceContextExt as _;
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

use super::asked::Carrier;
use super::network::Network;

pub(crate) use metrics::{Operation, SessionClock, metrics_on, record_metrics, record_operation};

/// Gives `span` the parent its request's `_meta` names, and a link to the
/// trace its HTTP request carries in its headers: the MCP request's
/// context and the HTTP request's are independent (the conventions), so
/// only the first is the parent. Without a parent from `_meta` the span
/// is its own trace's root, linked to the ambient span.
pub(crate) fn adopt(span: &Span, carrier: &Carrier, wire: &Network) {
    if span.is_disabled() {
        return;
    }
    let parent = match carrier.traceparent {
        Some(_) => extract(&MetaCarrier(carrier)),
        None => Context::new(),
    };
    if parent.span().span_context().is_valid() {
        let _ = span.set_parent(parent);
    } else {
        // No context from the client: a trace of its own, linked to the
        // span around it if there is one (an HTTP middleware's, or rmcp's
        // span for the whole connection, which would otherwise put every
        // request of a connection in one trace).
        let ambient = tracing::Span::current().context();
        let ambient = ambient.span().span_context().clone();
        let _ = span.set_parent(parent);
        if ambient.is_valid() {
            span.add_link(ambient);
        }
    }
    if let Some((traceparent, tracestate)) = wire.http().and_then(|http| http.trace.as_ref()) {
        let headers = HeaderCarrier {
            traceparent,
            tracestate: tracestate.as_deref(),
        };
        let linked = extract(&headers);
        let linked = linked.span().span_context().clone();
        if linked.is_valid() {
            span.add_link(linked);
        }
    }
}

/// Puts `span`'s context in `params._meta` (`traceparent`, `tracestate`),
/// for the client to parent its own span with.
pub(crate) fn inject(span: &Span, params: &mut serde_json::Value) {
    if span.is_disabled() {
        return;
    }
    let context = span.context();
    if !context.span().span_context().is_valid() {
        return;
    }
    let Some(params) = params.as_object_mut() else {
        return;
    };
    let meta = params
        .entry("_meta")
        .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        TraceContextPropagator::new().inject_context(&context, &mut MetaInjector(meta));
    }
}

struct MetaInjector<'a>(&'a mut serde_json::Map<String, serde_json::Value>);

impl Injector for MetaInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0
            .insert(key.to_owned(), serde_json::Value::String(value));
    }
}

/// W3C trace context and baggage, the formats SEP-414 names for `_meta`
/// (whatever propagators the application set for its own headers).
fn extract(carrier: &dyn Extractor) -> Context {
    let context = TraceContextPropagator::new().extract(carrier);
    BaggagePropagator::new().extract_with_context(&context, carrier)
}

struct MetaCarrier<'a>(&'a Carrier);

impl Extractor for MetaCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        match key {
            "traceparent" => self.0.traceparent.as_deref(),
            "tracestate" => self.0.tracestate.as_deref(),
            "baggage" => self.0.baggage.as_deref(),
            _ => None,
        }
    }

    fn keys(&self) -> Vec<&str> {
        ["traceparent", "tracestate", "baggage"]
            .into_iter()
            .filter(|key| self.get(key).is_some())
            .collect()
    }
}

struct HeaderCarrier<'a> {
    traceparent: &'a str,
    tracestate: Option<&'a str>,
}

impl Extractor for HeaderCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        match key {
            "traceparent" => Some(self.traceparent),
            "tracestate" => self.tracestate,
            _ => None,
        }
    }

    fn keys(&self) -> Vec<&str> {
        vec!["traceparent", "tracestate"]
    }
}
