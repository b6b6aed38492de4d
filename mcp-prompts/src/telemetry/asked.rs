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
    /// `traceparent`, `tracestate` and `baggage` from `_meta` (SEP-414).
    #[cfg_attr(not(feature = "otel"), allow(dead_code))]
    pub(super) carrier: Carrier,
}

/// W3C trace context as a request's `_meta` carries it.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(not(feature = "otel"), allow(dead_code))]
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
    /// What a request's params say: the thing `asked` for, and the trace
    /// context its `_meta` carries.
    pub(crate) fn new(asked: Option<Asked>, carrier: Carrier) -> Self {
        Self { asked, carrier }
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
        let carrier = p.meta.unwrap_or_default();
        Self::new(asked, carrier)
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
