//! The OpenTelemetry specification's attribute value length limit, which
//! the SDK (0.33) does not apply: its span limits count attributes but
//! never cut a value. [`Cut`] wraps the span processor and cuts every
//! string value (alone or in an array) of a span's attributes, its
//! events' and its links' before the span is queued, so that the export
//! queue never holds more than the limit of any one value, whatever an
//! application or a library recorded.

use std::time::Duration;

use opentelemetry::{Array, Context, KeyValue, StringValue, Value};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{Span, SpanData, SpanProcessor};

/// The variable for spans' attribute values, which wins.
const SPAN_LIMIT_VAR: &str = "OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT";

/// The variable for every signal's attribute values.
const LIMIT_VAR: &str = "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT";

/// The limit when neither variable sets one, in characters. The
/// specification sets none; a span queued for export (2,048 of them by
/// default) must not hold a whole request.
pub(super) const DEFAULT_LIMIT: usize = 4096;

/// The limit, in characters, the variables `var` reads set:
/// `OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT`, else
/// `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`, else [`DEFAULT_LIMIT`]. A value
/// that is not a whole number is ignored, as the specification asks.
pub(super) fn value_limit(var: impl Fn(&str) -> Option<String>) -> usize {
    [SPAN_LIMIT_VAR, LIMIT_VAR]
        .into_iter()
        .find_map(|name| var(name)?.trim().parse().ok())
        .unwrap_or(DEFAULT_LIMIT)
}

/// A span processor that cuts attribute values to a limit, then hands
/// the span to the processor it wraps.
#[derive(Debug)]
pub(super) struct Cut<P> {
    next: P,
    limit: usize,
}

impl<P> Cut<P> {
    /// `next`, given spans whose string values have at most `limit`
    /// characters.
    pub(super) fn new(next: P, limit: usize) -> Self {
        Self { next, limit }
    }
}

impl<P: SpanProcessor> SpanProcessor for Cut<P> {
    fn on_start(&self, span: &mut Span, cx: &Context) {
        self.next.on_start(span, cx);
    }

    fn on_end(&self, mut span: SpanData) {
        cut_all(&mut span.attributes, self.limit);
        for event in &mut span.events.events {
            cut_all(&mut event.attributes, self.limit);
        }
        for link in &mut span.links.links {
            cut_all(&mut link.attributes, self.limit);
        }
        self.next.on_end(span);
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.next.force_flush()
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.next.shutdown_with_timeout(timeout)
    }

    fn set_resource(&mut self, resource: &Resource) {
        self.next.set_resource(resource);
    }
}

fn cut_all(attributes: &mut [KeyValue], limit: usize) {
    for attribute in attributes {
        match &mut attribute.value {
            Value::String(text) => cut(text, limit),
            Value::Array(Array::String(texts)) => {
                for text in texts {
                    cut(text, limit);
                }
            }
            _ => {}
        }
    }
}

/// Cuts `text` to its first `limit` characters, as the specification
/// counts them (each character one, whatever its bytes).
fn cut(text: &mut StringValue, limit: usize) {
    // No more bytes than the limit: no more characters either.
    if text.as_str().len() <= limit {
        return;
    }
    if let Some((end, _)) = text.as_str().char_indices().nth(limit) {
        *text = StringValue::from(text.as_str()[..end].to_owned());
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use opentelemetry::trace::{Span as _, Tracer as _, TracerProvider as _};
    use opentelemetry::{KeyValue, StringValue, Value};
    use opentelemetry_sdk::trace::SdkTracerProvider;

    use super::*;

    /// Keeps what it is handed.
    #[derive(Debug, Default, Clone)]
    struct Received(Arc<Mutex<Vec<SpanData>>>);

    impl SpanProcessor for Received {
        fn on_start(&self, _: &mut Span, _: &Context) {}

        fn on_end(&self, span: SpanData) {
            self.0.lock().unwrap().push(span);
        }

        fn force_flush(&self) -> OTelSdkResult {
            Ok(())
        }

        fn shutdown_with_timeout(&self, _: Duration) -> OTelSdkResult {
            Ok(())
        }
    }

    #[test]
    fn the_variables_set_the_limit_the_span_one_first() {
        let vars = |set: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                set.iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| (*value).to_owned())
            }
        };
        assert_eq!(value_limit(vars(&[])), DEFAULT_LIMIT);
        assert_eq!(value_limit(vars(&[(LIMIT_VAR, "100")])), 100);
        assert_eq!(
            value_limit(vars(&[(LIMIT_VAR, "100"), (SPAN_LIMIT_VAR, "20")])),
            20
        );
        assert_eq!(
            value_limit(vars(&[(LIMIT_VAR, "100"), (SPAN_LIMIT_VAR, "lots")])),
            100
        );
        assert_eq!(value_limit(vars(&[(LIMIT_VAR, "-1")])), DEFAULT_LIMIT);
    }

    #[test]
    fn every_string_value_of_a_span_its_events_and_links_is_cut() {
        let received = Received::default();
        let provider = SdkTracerProvider::builder()
            .with_span_processor(Cut::new(received.clone(), 8))
            .build();
        let tracer = provider.tracer("test");
        let huge = "é".repeat(1 << 20);
        let linked = {
            let other = tracer.start("other");
            other.span_context().clone()
        };
        let mut span = tracer.start("huge");
        span.set_attribute(KeyValue::new("method", huge.clone()));
        span.set_attribute(KeyValue::new("short", "ok"));
        span.set_attribute(KeyValue::new("count", 7));
        span.set_attribute(KeyValue::new(
            "list",
            Value::Array(vec![StringValue::from(huge.clone()), "b".into()].into()),
        ));
        span.add_event("event", vec![KeyValue::new("detail", huge.clone())]);
        span.add_link(linked, vec![KeyValue::new("why", huge)]);
        span.end();
        let spans = received.0.lock().unwrap();
        let span = spans.iter().find(|s| s.name == "huge").unwrap();
        let value = |attributes: &[KeyValue], key: &str| {
            attributes
                .iter()
                .find(|kv| kv.key.as_str() == key)
                .map(|kv| kv.value.clone())
                .unwrap()
        };
        let eight = Value::from("é".repeat(8));
        assert_eq!(value(&span.attributes, "method"), eight);
        assert_eq!(value(&span.attributes, "short"), Value::from("ok"));
        assert_eq!(value(&span.attributes, "count"), Value::I64(7));
        assert_eq!(
            value(&span.attributes, "list"),
            Value::Array(vec![StringValue::from("é".repeat(8)), "b".into()].into())
        );
        assert_eq!(value(&span.events.events[0].attributes, "detail"), eight);
        assert_eq!(value(&span.links.links[0].attributes, "why"), eight);
    }
}
