//! OpenTelemetry export as the standard `OTEL_*` variables describe it:
//! traces and metrics over OTLP/HTTP (protobuf), to the endpoint
//! `OTEL_EXPORTER_OTLP_ENDPOINT` (or a per-signal one) names; nothing at
//! all when none is set.

use std::fmt;
use std::sync::Arc;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{MetricExporter, Protocol, SpanExporter, WithExportConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{BatchSpanProcessor, SdkTracerProvider};
use tracing_subscriber::filter::{FilterExt as _, Targets};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

use super::prometheus::Prometheus;

/// The one protocol this build exports with.
const HTTP_PROTOBUF: &str = "http/protobuf";

/// The libraries whose spans are not exported unless asked for: rmcp's
/// own spans (its service loop, each message it routes) carry none of the
/// conventions' attributes and would each be a root span; the request
/// spans this crate makes inside them are what a trace should show.
const SKIPPED_BY_DEFAULT: &[&str] = &["rmcp"];

/// OpenTelemetry's providers, set up from the environment: hold it while
/// serving, then [`shutdown`](Self::shutdown) it (or drop it) to send what
/// is still buffered.
///
/// [`init`](crate::otel::init) is the one call for a binary; use
/// [`from_env`](Self::from_env) and [`layer`](Self::layer) to add the
/// export to a `tracing` subscriber of your own.
#[must_use = "dropping it shuts the export down"]
pub struct Otel {
    tracer: Option<SdkTracerProvider>,
    meter: Option<SdkMeterProvider>,
    prometheus: Option<Prometheus>,
    /// The `tracing` targets whose spans are left out, with their modules.
    skipped: Arc<[String]>,
}

impl fmt::Debug for Otel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Otel")
            .field("traces", &self.tracer.is_some())
            .field("metrics", &self.meter.is_some())
            .field("prometheus", &self.prometheus.is_some())
            .field("skipped", &self.skipped)
            .finish()
    }
}

/// Why the export could not be set up: a variable names what this build
/// cannot do, or an exporter could not be built.
#[derive(Debug)]
pub struct OtelError(String);

impl OtelError {
    pub(super) fn new(reason: String) -> Self {
        Self(reason)
    }
}

impl fmt::Display for OtelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OtelError {}

/// One signal's set-up, from its variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Signal {
    Traces,
    Metrics,
}

impl Signal {
    fn name(self) -> &'static str {
        match self {
            Self::Traces => "TRACES",
            Self::Metrics => "METRICS",
        }
    }

    /// Whether this signal is exported: an endpoint is set for it (or for
    /// all), its exporter is not `none`, and the SDK is not disabled.
    fn wanted(self) -> Result<bool, OtelError> {
        let signal = self.name();
        if var("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
            return Ok(false);
        }
        match var(&format!("OTEL_{signal}_EXPORTER")).as_deref() {
            None | Some("otlp") => {}
            Some("none") => return Ok(false),
            Some(other) => {
                return Err(OtelError(format!(
                    "OTEL_{signal}_EXPORTER={other} is not supported: only `otlp` and `none` are"
                )));
            }
        }
        let endpoint = var("OTEL_EXPORTER_OTLP_ENDPOINT")
            .or_else(|| var(&format!("OTEL_EXPORTER_OTLP_{signal}_ENDPOINT")));
        if endpoint.is_none() {
            return Ok(false);
        }
        let protocol = var(&format!("OTEL_EXPORTER_OTLP_{signal}_PROTOCOL"))
            .or_else(|| var("OTEL_EXPORTER_OTLP_PROTOCOL"));
        match protocol.as_deref() {
            None | Some(HTTP_PROTOBUF) => Ok(true),
            Some(other) => Err(OtelError(format!(
                "OTLP protocol `{other}` is not supported by this build: set OTEL_EXPORTER_OTLP_PROTOCOL={HTTP_PROTOBUF} (or leave it unset)"
            ))),
        }
    }
}

/// A variable's value, if set and not blank.
fn var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .filter(|value| !value.trim().is_empty())
}

/// How [`Otel`] is set up beyond what the `OTEL_*` variables say: a
/// Prometheus scrape, and the libraries whose spans are left out.
///
/// ```no_run
/// # fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let otel = mcp_prompts::otel::Otel::builder("my-prompts")
///     .prometheus()
///     .skip_spans_of(["rmcp", "h2"])
///     .init("warn")?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[must_use = "nothing is set up until `build` or `init`"]
pub struct OtelBuilder {
    service_name: String,
    prometheus: bool,
    skipped: Vec<String>,
}

impl OtelBuilder {
    /// Also keeps the metrics for a Prometheus scrape
    /// ([`Otel::prometheus`]), whether or not they are exported over OTLP.
    pub fn prometheus(mut self) -> Self {
        self.prometheus = true;
        self
    }

    /// Leaves out the spans of these `tracing` targets and their modules
    /// (`"rmcp"` leaves out `rmcp::service` too), instead of rmcp's, which
    /// are left out by default: its internal spans carry none of the
    /// conventions' attributes, and the request spans this crate makes are
    /// exported either way. An empty list (`Vec::<String>::new()`) exports
    /// every span.
    pub fn skip_spans_of<I>(mut self, targets: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.skipped = targets.into_iter().map(Into::into).collect();
        self
    }

    /// The providers, as [`Otel::from_env`] says, with this builder's
    /// choices.
    ///
    /// # Errors
    /// As [`Otel::from_env`]; also a Prometheus reader that cannot be made.
    pub fn build(self) -> Result<Otel, OtelError> {
        Otel::set_up(self)
    }

    /// Logging and export for a binary, as [`init`] says, with this
    /// builder's choices.
    ///
    /// # Errors
    /// As [`build`](Self::build); also if a global subscriber is already set.
    pub fn init(self, default_filter: &str) -> Result<Otel, OtelError> {
        subscribe(self.build()?, default_filter)
    }
}

impl Otel {
    /// A builder, for a Prometheus scrape or other spans left out; the
    /// service is named `service_name` unless `OTEL_SERVICE_NAME` names it.
    pub fn builder(service_name: &str) -> OtelBuilder {
        OtelBuilder {
            service_name: service_name.to_owned(),
            prometheus: false,
            skipped: SKIPPED_BY_DEFAULT.iter().map(|&t| t.to_owned()).collect(),
        }
    }

    /// Sets up export as the `OTEL_*` variables say: traces and metrics
    /// over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `..._METRICS_ENDPOINT`) is
    /// set, under `OTEL_SERVICE_NAME` (else `service_name`), batched as
    /// `OTEL_BSP_SCHEDULE_DELAY` and read every
    /// `OTEL_METRIC_EXPORT_INTERVAL` milliseconds; nothing when no
    /// endpoint is set. A span's every string attribute value (its
    /// events' and links' too) is cut to
    /// `OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT` characters, else
    /// `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`, else 4,096, before it is
    /// queued. The meter provider becomes the global one, which the
    /// server records its metrics with.
    ///
    /// # Errors
    /// A protocol other than `http/protobuf` (such as `grpc`), an
    /// exporter other than `otlp` or `none`, or an exporter that cannot
    /// be built.
    pub fn from_env(service_name: &str) -> Result<Self, OtelError> {
        Self::builder(service_name).build()
    }

    fn set_up(builder: OtelBuilder) -> Result<Self, OtelError> {
        let service_name = builder.service_name.as_str();
        let (export_traces, export_metrics) = (Signal::Traces.wanted()?, Signal::Metrics.wanted()?);
        let resource = || {
            let builder = Resource::builder();
            // The variable, which the builder reads, wins.
            match var("OTEL_SERVICE_NAME") {
                Some(_) => builder.build(),
                None => builder.with_service_name(service_name.to_owned()).build(),
            }
        };
        let failed = |what: &str, err: &dyn fmt::Display| OtelError(format!("{what}: {err}"));
        let tracer = if export_traces {
            let exporter = SpanExporter::builder()
                .with_http()
                .with_protocol(Protocol::HttpBinary)
                .build()
                .map_err(|err| failed("the OTLP span exporter", &err))?;
            // Cut before the batch queue, which holds 2,048 spans by
            // default: the SDK's limits never cut a value.
            let batch = BatchSpanProcessor::builder(exporter).build();
            let limit = super::cut::value_limit(var);
            Some(
                SdkTracerProvider::builder()
                    .with_span_processor(super::cut::Cut::new(batch, limit))
                    .with_resource(resource())
                    .build(),
            )
        } else {
            None
        };
        // One provider, read by the OTLP export, the scrape or both: the
        // same instruments either way.
        let mut meter = SdkMeterProvider::builder();
        if export_metrics {
            let exporter = MetricExporter::builder()
                .with_http()
                .with_protocol(Protocol::HttpBinary)
                .build()
                .map_err(|err| failed("the OTLP metric exporter", &err))?;
            meter = meter.with_reader(PeriodicReader::builder(exporter).build());
        }
        let prometheus = if builder.prometheus {
            let (prometheus, reader) = Prometheus::new()?;
            meter = meter.with_reader(reader);
            Some(prometheus)
        } else {
            None
        };
        let meter = (export_metrics || prometheus.is_some()).then(|| {
            let provider = meter.with_resource(resource()).build();
            opentelemetry::global::set_meter_provider(provider.clone());
            super::record_metrics();
            provider
        });
        Ok(Self {
            tracer,
            meter,
            prometheus,
            skipped: builder.skipped.into(),
        })
    }

    /// The metrics for a Prometheus scrape, if the builder asked for them
    /// ([`OtelBuilder::prometheus`]).
    pub fn prometheus(&self) -> Option<Prometheus> {
        self.prometheus.clone()
    }

    /// Whether anything is exported.
    pub fn is_exporting(&self) -> bool {
        self.tracer.is_some() || self.meter.is_some()
    }

    /// The `tracing` layer that turns spans into exported OpenTelemetry
    /// spans (the server's request spans among them, not those of the
    /// libraries [`OtelBuilder::skip_spans_of`] names), for a subscriber of
    /// your own; `None` when traces are not exported.
    pub fn layer<S>(&self) -> Option<impl tracing_subscriber::Layer<S> + use<S>>
    where
        S: tracing::Subscriber + for<'span> tracing_subscriber::registry::LookupSpan<'span>,
    {
        let tracer = self.tracer.as_ref()?.tracer("mcp-prompts");
        let skipped = Arc::clone(&self.skipped);
        let kept = tracing_subscriber::filter::filter_fn(move |metadata| {
            !is_skipped(&skipped, metadata.target())
        });
        let layer = tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_location(false)
            .with_threads(false)
            .with_target(false)
            .with_tracked_inactivity(false);
        Some(tracing_subscriber::Layer::with_filter(layer, kept))
    }

    /// Sends what is buffered and stops exporting.
    ///
    /// # Errors
    /// An exporter that could not send what it held.
    pub fn shutdown(mut self) -> Result<(), OtelError> {
        self.stop()
    }

    fn stop(&mut self) -> Result<(), OtelError> {
        let mut problems = Vec::new();
        if let Some(tracer) = self.tracer.take() {
            if let Err(err) = tracer.shutdown() {
                problems.push(format!("traces: {err}"));
            }
        }
        if let Some(meter) = self.meter.take() {
            if let Err(err) = meter.shutdown() {
                problems.push(format!("metrics: {err}"));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(OtelError(problems.join("; ")))
        }
    }
}

/// Records the server's duration histograms with the global meter
/// provider, for an application that set its own up (with
/// [`Otel::from_env`] exporting metrics, they are recorded already).
/// Set the provider first: instruments are made from it at the first
/// request.
///
/// ```no_run
/// # fn provider() -> opentelemetry_sdk::metrics::SdkMeterProvider { unimplemented!() }
/// opentelemetry::global::set_meter_provider(provider());
/// mcp_prompts::otel::record_metrics();
/// ```
pub fn record_metrics() {
    super::record_metrics();
}

/// Sends what is still buffered.
impl Drop for Otel {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// Logging and OpenTelemetry export for a binary, in one call: log lines
/// on stderr (stdout may be the MCP channel) filtered by `RUST_LOG`
/// (`default_filter` when unset, e.g. `"warn"` or `"mcp_prompts=info"`),
/// and traces and metrics exported as [`Otel::from_env`] says. Hold the
/// result while serving; shut it down at the end to flush.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let otel = mcp_prompts::otel::init("my-prompts", "warn")?;
/// mcp_prompts::Server::new("my-prompts", "1.0").serve_stdio().await?;
/// otel.shutdown()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`Otel::from_env`]; also if a global subscriber is already set.
pub fn init(service_name: &str, default_filter: &str) -> Result<Otel, OtelError> {
    Otel::builder(service_name).init(default_filter)
}

/// Whether `target` is one of `skipped` or a module of one.
fn is_skipped(skipped: &[String], target: &str) -> bool {
    skipped.iter().any(|library| {
        target
            .strip_prefix(library.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.get(..2) == Some("::"))
    })
}

/// `filter` as `Targets`, when it is only comma-separated `level`s and
/// `target=level`s (which both read alike); `None` for anything else
/// (an empty piece, a span or a field), which `EnvFilter` reads.
fn plain_targets(filter: &str) -> Option<Targets> {
    let level = |text: &str| {
        ["trace", "debug", "info", "warn", "error", "off"]
            .iter()
            .any(|name| text.eq_ignore_ascii_case(name))
    };
    let target = |text: &str| {
        !text.is_empty()
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'-'))
    };
    let plain = filter.split(',').all(|piece| match piece.split_once('=') {
        Some((name, named)) => target(name) && level(named),
        None => level(piece),
    });
    plain.then(|| filter.parse().ok()).flatten()
}

/// `otel`'s spans and the log lines, as the global subscriber.
fn subscribe(otel: Otel, default_filter: &str) -> Result<Otel, OtelError> {
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false);
    // RUST_LOG's full syntax (spans, fields, value matchers) needs
    // `EnvFilter`, which builds its directive sets as it starts; a default
    // of targets and levels (`warn`, `mcp_prompts=info,hyper=off`) reads
    // as `Targets` with less start-up work, for a server its host launches
    // on every start.
    let filter = match (std::env::var_os("RUST_LOG"), plain_targets(default_filter)) {
        (None, Some(targets)) => targets.boxed(),
        _ => tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter))
            .boxed(),
    };
    // RUST_LOG filters the log lines only: spans at `info` and above
    // (every request's among them) are exported whatever it says. Events
    // are not: a line RUST_LOG leaves out is then never even made.
    let spans = otel.layer().map(|layer| {
        let spans = tracing_subscriber::filter::filter_fn(|metadata| {
            metadata.is_span() && *metadata.level() <= tracing::Level::INFO
        });
        tracing_subscriber::Layer::with_filter(layer, spans)
    });
    tracing_subscriber::registry()
        .with(tracing_subscriber::Layer::with_filter(fmt, filter))
        .with(spans)
        .try_init()
        .map_err(|err| OtelError(format!("a tracing subscriber is already set: {err}")))?;
    Ok(otel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_targets_and_levels_are_read_without_env_filter() {
        for plain in [
            "warn",
            "mcp_prompts=info",
            "info,hyper=off",
            "WARN,my-app::db=debug",
        ] {
            assert!(plain_targets(plain).is_some(), "{plain}");
        }
        for other in [
            "",
            "warn,",
            "a=info,,b=debug",
            "mcp_prompts[request]=debug",
            "[{id}]=info",
            "x=loud",
        ] {
            assert!(plain_targets(other).is_none(), "{other}");
        }
        let targets = plain_targets("info,hyper=off").unwrap();
        assert_eq!(
            targets.default_level(),
            Some(tracing::level_filters::LevelFilter::INFO)
        );
    }

    #[test]
    fn a_library_is_skipped_with_its_modules_and_nothing_else() {
        let skipped = ["rmcp".to_owned()];
        assert!(is_skipped(&skipped, "rmcp"));
        assert!(is_skipped(&skipped, "rmcp::service::server"));
        assert!(!is_skipped(&skipped, "rmcpx"));
        assert!(!is_skipped(&skipped, "mcp_prompts::telemetry"));
        assert!(!is_skipped(&[], "rmcp::service"));
    }
}
