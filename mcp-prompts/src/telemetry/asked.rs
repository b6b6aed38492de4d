//! What a request is about, read from its params only when it is watched:
//! the prompt, tool or resource it names, and the trace context its
//! `_meta` carries.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::protocol::method::Subject;

/// The prompt, tool or resource a request names.
#[derive(Debug, PartialEq)]
pub(crate) enum Asked {
    Prompt(String),
    Tool(String),
    Resource(String),
}

/// What telemetry reads from a request's params.
#[derive(Debug, Default)]
pub(crate) struct ParamsRead {
    pub(super) asked: Option<Asked>,
    /// `traceparent`, `tracestate` and `baggage` from `_meta` (SEP-414):
    /// read only where a trace can be continued.
    #[cfg(feature = "otel")]
    pub(super) carrier: Carrier,
}

/// W3C trace context as a request's `_meta` carries it.
#[cfg(feature = "otel")]
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Carrier {
    pub(super) traceparent: Option<String>,
    pub(super) tracestate: Option<String>,
    pub(super) baggage: Option<String>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
    #[serde(rename = "ref", borrow, default)]
    reference: Option<Reference<'a>>,
    /// Read as the carrier itself: its other keys (`progressToken`, ...)
    /// are skipped, where `flatten` would buffer every one of them.
    #[cfg(feature = "otel")]
    #[serde(rename = "_meta", default)]
    meta: Option<Carrier>,
}

#[derive(Deserialize)]
struct Reference<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
}

impl ParamsRead {
    /// What a request's params say: the thing `asked` for.
    pub(crate) fn new(asked: Option<Asked>) -> Self {
        Self {
            asked,
            #[cfg(feature = "otel")]
            carrier: Carrier::default(),
        }
    }

    /// With the trace context the request's `_meta` carries.
    #[cfg(feature = "otel")]
    pub(crate) fn carrying(self, carrier: Carrier) -> Self {
        Self { carrier, ..self }
    }

    /// Reads the params of a request about `subject`; what cannot be read
    /// is left out (the request's own handler answers for malformed params).
    pub(crate) fn params(subject: Subject, params: Option<&RawValue>) -> Self {
        let Some(params) = params else {
            return Self::default();
        };
        let Ok(p) = serde_json::from_str::<Params<'_>>(params.get()) else {
            return Self::default();
        };
        let owned = |text: Option<Cow<'_, str>>| text.map(Cow::into_owned);
        let asked = match subject {
            Subject::Prompt => owned(p.name).map(Asked::Prompt),
            Subject::Tool => owned(p.name).map(Asked::Tool),
            Subject::Reference => p.reference.and_then(|r| match &*r.kind {
                "ref/prompt" => owned(r.name).map(Asked::Prompt),
                "ref/resource" => owned(r.uri).map(Asked::Resource),
                _ => None,
            }),
            Subject::Uri => owned(p.uri).map(Asked::Resource),
        };
        let read = Self::new(asked);
        #[cfg(feature = "otel")]
        let read = read.carrying(p.meta.unwrap_or_default());
        read
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(method: &str, params: &str) -> ParamsRead {
        ParamsRead::params(
            Subject::of(method),
            Some(&RawValue::from_string(params.to_owned()).unwrap()),
        )
    }

    #[test]
    fn names_what_each_method_is_about() {
        let get = read(
            "prompts/get",
            r#"{"name":"greet","_meta":{"traceparent":"00-a-b-01","progressToken":1}}"#,
        );
        assert_eq!(get.asked, Some(Asked::Prompt("greet".into())));
        #[cfg(feature = "otel")]
        assert_eq!(get.carrier.traceparent.as_deref(), Some("00-a-b-01"));
        let complete = read(
            "completion/complete",
            r#"{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"a","value":""}}"#,
        );
        assert_eq!(complete.asked, Some(Asked::Prompt("greet".into())));
        let read_uri = read("resources/read", r#"{"uri":"skill://a/SKILL.md"}"#);
        assert_eq!(
            read_uri.asked,
            Some(Asked::Resource("skill://a/SKILL.md".into()))
        );
        assert_eq!(read("prompts/get", "[1]").asked, None);
    }
}
