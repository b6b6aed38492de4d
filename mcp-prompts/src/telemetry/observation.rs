//! One request watched: its span in the OpenTelemetry conventions for MCP,
//! its line in the log, its duration for the metrics. Nothing is read,
//! timed or allocated unless a subscriber wants the span or the line (or,
//! with `otel`, metrics are being recorded).

use std::borrow::Cow;
use std::time::Instant;

use serde_json::value::RawValue;
use tracing::field::Empty;
use tracing::{Level, Span};

use super::asked::{Asked, ParamsRead};
use super::ended::Ended;
use super::line::{self, TARGET};
use super::network::{Delivered, HttpNetwork, Network};
use crate::error::{brief, excerpt, excerpt_cow};
use crate::protocol::ProtocolVersion;
use crate::protocol::method::{Method, Subject};

/// Whether the prompt, tool or resource a request names is one its caller
/// may see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Visibility {
    /// Served to this caller: its name may name the span and the metric.
    Visible,
    /// Served, but not to this caller: it answers as an unknown one, and
    /// its telemetry says no more (the log line says it was hidden).
    Hidden,
    /// Not served.
    Unknown,
}

/// A request (or notification) being watched; inert when nobody watches.
pub(crate) struct Observation(Option<Box<Observing>>);

/// What names a request's span: its method, and what it asks for where
/// its caller may see it. A URI is recorded whatever it names, so cut as
/// the log line cuts it; a prompt's or tool's name only when served to
/// this caller, and so one of the server's own (at most 128 bytes, the
/// name rule), which names the span and the metric whole.
struct Named<'a> {
    span: Cow<'static, str>,
    prompt: Option<&'a str>,
    tool: Option<&'a str>,
    operation: Option<&'static str>,
    uri: Option<Cow<'a, str>>,
}

impl<'a> Named<'a> {
    fn of(method: &str, asked: Option<&'a Asked>, known: Visibility) -> Self {
        let method = known_method(method).unwrap_or(OTHER);
        let mut named = Self {
            span: Cow::Borrowed(method),
            prompt: None,
            tool: None,
            operation: (method == "tools/call").then_some("execute_tool"),
            uri: None,
        };
        match (asked, known) {
            (Some(Asked::Resource(uri)), _) => named.uri = Some(excerpt_cow(uri)),
            (Some(Asked::Prompt(name)), Visibility::Visible) => {
                named.prompt = Some(name.as_str());
                named.span = Cow::Owned(spaced(method, name));
            }
            (Some(Asked::Tool(name)), Visibility::Visible) => {
                named.tool = Some(name.as_str());
                named.span = Cow::Owned(spaced(method, name));
            }
            _ => {}
        }
        named
    }
}

/// `method name`, as a span is named: joined in place, since `format!`
/// costs a traced request several times what the copy does.
fn spaced(method: &str, name: &str) -> String {
    let mut span = String::with_capacity(method.len() + 1 + name.len());
    span.push_str(method);
    span.push(' ');
    span.push_str(name);
    span
}

struct Observing {
    span: Span,
    started: Instant,
    /// The method, as spans are named and metrics keyed by it: one this
    /// server knows, or [`OTHER`].
    method: &'static str,
    /// The method as the client sent it, when it is none this server
    /// knows (for the log line).
    unknown: Option<Box<str>>,
    read: ParamsRead,
    known: Visibility,
    subject: Option<String>,
    /// For the metrics' attributes, and the status of an HTTP answer.
    wire: Network,
    /// Whether the line is written: at `info` for a request, `debug` for a
    /// notification.
    line: bool,
    notification: bool,
}

impl Observation {
    /// Nothing watched.
    pub(crate) const OFF: Self = Self(None);

    /// Starts watching request `id`, if anyone wants its span, its line or
    /// its duration. `judge` says whether the caller may see what the
    /// request names: only what it may see names the span
    /// (`prompts/get code_review`) and becomes an attribute, so that a
    /// name a client invented never becomes a metric's series and a hidden
    /// prompt looks unknown.
    pub(crate) fn request(
        method: &str,
        id: &str,
        read: impl FnOnce() -> ParamsRead,
        judge: impl FnOnce(&Asked) -> Visibility,
        (wire, subject): (&Network, Option<&str>),
    ) -> Self {
        if !super::wanted() {
            return Self::OFF;
        }
        let read = read();
        let known = read.asked.as_ref().map_or(Visibility::Unknown, judge);
        // Field values are worked out only when someone watches, and given
        // at the span's start rather than recorded after: each recording
        // is a lookup of the span's data and a lock for a layer that
        // exports it.
        let at = Peer::of(wire);
        let named = Named::of(method, read.asked.as_ref(), known);
        let span = tracing::info_span!(
            target: TARGET,
            "mcp.request",
            otel.name = &*named.span,
            otel.kind = "server",
            otel.status_code = Empty,
            otel.status_description = Empty,
            mcp.method.name = &*method_attribute(method),
            jsonrpc.request.id = id_value(id).as_deref().map(excerpt_cow).as_deref(),
            gen_ai.prompt.name = named.prompt,
            gen_ai.tool.name = named.tool,
            gen_ai.operation.name = named.operation,
            mcp.resource.uri = named.uri.as_deref(),
            mcp.protocol.version = Empty,
            mcp.session.id = at.session.as_deref(),
            network.transport = at.transport,
            network.protocol.name = at.protocol,
            network.protocol.version = at.version,
            client.address = at.address.as_deref(),
            client.port = at.client.map(|c| i64::from(c.port())),
            rpc.response.status_code = Empty,
            error.type = Empty,
        );
        let line = tracing::enabled!(target: TARGET, Level::INFO);
        if span.is_disabled() && !line && !super::metrics_on() {
            return Self::OFF;
        }
        let mut watch = Self::start(span, method, read, wire, subject, line, false);
        if let Some(watched) = watch.0.as_deref_mut() {
            watched.known = known;
        }
        watch
    }

    /// Starts watching a notification from the client.
    pub(crate) fn notification(method: &str, params: Option<&RawValue>, wire: &Network) -> Self {
        if !super::wanted() {
            return Self::OFF;
        }
        let at = Peer::of(wire);
        let span = tracing::info_span!(
            target: TARGET,
            "mcp.notification",
            otel.name = known_method(method).unwrap_or(OTHER),
            otel.kind = "server",
            mcp.method.name = &*method_attribute(method),
            mcp.protocol.version = Empty,
            mcp.session.id = at.session.as_deref(),
            network.transport = at.transport,
            network.protocol.name = at.protocol,
            network.protocol.version = at.version,
            client.address = at.address.as_deref(),
            client.port = at.client.map(|c| i64::from(c.port())),
        );
        let line = tracing::enabled!(target: TARGET, Level::DEBUG);
        if span.is_disabled() && !line && !super::metrics_on() {
            return Self::OFF;
        }
        Self::start(
            span,
            method,
            ParamsRead::params(Subject::of(method), params),
            wire,
            None,
            line,
            true,
        )
    }

    fn start(
        span: Span,
        method: &str,
        read: ParamsRead,
        wire: &Network,
        subject: Option<&str>,
        line: bool,
        notification: bool,
    ) -> Self {
        #[cfg(feature = "otel")]
        super::otel::adopt(&span, &read.carrier, wire);
        Self(Some(Box::new(Observing {
            span,
            started: Instant::now(),
            method: known_method(method).unwrap_or(OTHER),
            unknown: known_method(method).is_none().then(|| method.into()),
            read,
            known: Visibility::Unknown,
            subject: subject.map(str::to_owned),
            wire: wire.clone(),
            line,
            notification,
        })))
    }

    /// Whether anyone watches.
    pub(crate) fn is_on(&self) -> bool {
        self.0.is_some()
    }

    /// Enters the span, if there is one: the guard leaves it.
    #[inline]
    pub(crate) fn enter(&self) -> Option<tracing::span::Entered<'_>> {
        self.0.as_ref().map(|watched| watched.span.enter())
    }

    /// The span, to run the request in (disabled when nobody watches).
    pub(crate) fn span(&self) -> Span {
        self.0.as_ref().map_or_else(Span::none, |w| w.span.clone())
    }

    /// Ends the watch on how the request `ended`, in revision `version`,
    /// and what its transport `delivered`.
    pub(crate) fn end(
        mut self,
        ended: &Ended<'_>,
        version: Option<ProtocolVersion>,
        delivered: Delivered,
    ) {
        if let Some(watched) = self.0.take() {
            let status = watched.wire.status(delivered);
            watched.end(ended, version, status);
        }
    }
}

/// A watch dropped unfinished ends all the same: a panic on the way
/// (answered -32603 by the guard that caught it), or a request whose
/// work was dropped (its client went away) and so got no answer.
impl Drop for Observation {
    #[inline]
    fn drop(&mut self) {
        if let Some(watched) = self.0.take() {
            watched.end_unfinished();
        }
    }
}

/// What a span says of where a message came from, worked out before the
/// span starts.
struct Peer<'a> {
    transport: Option<&'static str>,
    /// `http`, on HTTP.
    protocol: Option<&'static str>,
    version: Option<&'static str>,
    client: Option<std::net::SocketAddr>,
    /// The client's IP address as text: given to the span as a string, it
    /// is copied once; given as a value to display, an exporting layer
    /// formats it through `Debug` into a growing string.
    address: Option<String>,
    /// Cut as a log line cuts it.
    session: Option<Cow<'a, str>>,
}

impl<'a> Peer<'a> {
    fn of(wire: &'a Network) -> Self {
        let http = wire.http();
        let client = http.and_then(|h| h.client);
        Self {
            transport: wire.transport(),
            protocol: http.map(|_| "http"),
            version: http.map(|h| h.version),
            client,
            address: http.and_then(HttpNetwork::client_address),
            session: http.and_then(|h| h.session.as_deref()).map(excerpt_cow),
        }
    }
}

impl Observing {
    // Boxed, so that the inlined `drop` above hands over a pointer; the
    // watch is small enough to move without `otel`, not with it.
    #[allow(clippy::boxed_local)]
    #[cold]
    fn end_unfinished(self: Box<Self>) {
        let ended = if std::thread::panicking() {
            Ended::Error {
                code: i64::from(crate::error::Error::INTERNAL_ERROR),
                message: "the server panicked",
            }
        } else {
            Ended::Unanswered
        };
        (*self).end(&ended, None, None);
    }

    fn end(self, ended: &Ended<'_>, version: Option<ProtocolVersion>, status: Option<u16>) {
        let elapsed = self.started.elapsed();
        let span = &self.span;
        let version = version.map(ProtocolVersion::as_str);
        if let Some(version) = version {
            span.record("mcp.protocol.version", version);
        }
        if let Some(code) = ended.code() {
            span.record("rpc.response.status_code", code.to_string());
        }
        let error_type = ended.error_type();
        if let Some(error_type) = &error_type {
            span.record("error.type", &**error_type);
        }
        if ended.is_failure() {
            span.record("otel.status_code", "error");
            if let Some(message) = ended.message() {
                span.record("otel.status_description", brief(message).as_str());
            }
        }
        #[cfg(feature = "otel")]
        if super::otel::metrics_on() {
            super::otel::record_operation(&super::otel::Operation {
                method: self.method,
                target: self.visible_target(),
                error_type: error_type.as_deref(),
                status_code: ended.code(),
                version,
                wire: &self.wire,
                seconds: elapsed.as_secs_f64(),
            });
        }
        if self.line {
            let about = self.read.asked.as_ref();
            let entry = line::Entry {
                method: self.method,
                unknown: self.unknown.as_deref(),
                about,
                hidden: self.known == Visibility::Hidden,
                ended,
                elapsed,
                subject: self.subject.as_deref(),
                status,
            };
            if self.notification {
                line::notification(&entry);
            } else {
                line::request(&entry);
            }
        }
    }

    /// The prompt or tool the request is about, if its caller may see it.
    #[cfg(feature = "otel")]
    fn visible_target(&self) -> Option<(&'static str, &str)> {
        if self.known != Visibility::Visible {
            return None;
        }
        match self.read.asked.as_ref()? {
            Asked::Prompt(name) => Some(("gen_ai.prompt.name", name)),
            Asked::Tool(name) => Some(("gen_ai.tool.name", name)),
            Asked::Resource(_) => None,
        }
    }
}

/// What spans are named and metrics keyed by for a method this server
/// does not know: a client's made-up names must not make new series.
const OTHER: &str = "_OTHER";

/// The notifications a client may send in any revision.
const CLIENT_NOTIFICATIONS: [&str; 5] = [
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
    "notifications/elicitation/complete",
];

/// `mcp.method.name`: a method this server knows whole, any other (a
/// client's text, up to a whole message long) cut as its log line cuts it.
fn method_attribute(name: &str) -> Cow<'static, str> {
    known_method(name).map_or_else(|| Cow::Owned(excerpt(name)), Cow::Borrowed)
}

/// `name` as a `'static` name, if this server knows the method.
fn known_method(name: &str) -> Option<&'static str> {
    Method::from_name(name).map(Method::name).or_else(|| {
        CLIENT_NOTIFICATIONS
            .iter()
            .find(|known| **known == name)
            .copied()
    })
}

/// A request id's value, as `jsonrpc.request.id` records it: a string's
/// text (not its JSON), a number's digits; none for `null`.
fn id_value(json: &str) -> Option<Cow<'_, str>> {
    if json.starts_with('"') {
        serde_json::from_str::<Cow<'_, str>>(json).ok()
    } else if json == "null" {
        None
    } else {
        Some(Cow::Borrowed(json))
    }
}

#[cfg(test)]
mod tests {
    use super::{OTHER, id_value, known_method, method_attribute};

    #[test]
    fn only_methods_the_server_knows_name_spans_and_series() {
        assert_eq!(known_method("prompts/get"), Some("prompts/get"));
        assert_eq!(known_method("skills/list"), Some("skills/list"));
        assert_eq!(
            known_method("notifications/roots/list_changed"),
            Some("notifications/roots/list_changed")
        );
        assert_eq!(known_method("made/up"), None);
        assert_eq!(known_method("made/up").unwrap_or(OTHER), "_OTHER");
    }

    #[test]
    fn a_method_the_server_does_not_know_is_recorded_cut() {
        assert_eq!(method_attribute("prompts/get"), "prompts/get");
        assert_eq!(method_attribute("made/up"), "made/up");
        let sent = "m".repeat(1 << 20);
        let recorded = method_attribute(&sent);
        assert!(recorded.ends_with("…(1048576 bytes)"), "{recorded}");
        assert!(recorded.len() < 100, "{recorded}");
    }

    #[test]
    fn ids_are_recorded_as_their_values() {
        assert_eq!(id_value("7").as_deref(), Some("7"));
        assert_eq!(id_value("\"abc\"").as_deref(), Some("abc"));
        assert_eq!(id_value(r#""a\"b""#).as_deref(), Some("a\"b"));
        assert_eq!(id_value("null"), None);
    }
}
