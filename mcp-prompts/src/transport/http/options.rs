//! What the HTTP transport accepts: hosts, origins, sessions, sizes.

use std::net::SocketAddr;
use std::time::Duration;

/// Options of the Streamable HTTP transport.
///
/// The defaults suit a server on this machine: only `localhost`,
/// `127.0.0.1` and `[::1]` are accepted as `Host` (and as the host of an
/// `Origin`), sessions expire after 30 idle minutes, at most 10,000 live
/// at once (a session used within the last minute is never ended to make
/// room for a new one), and a `GET` opens a server-to-client event stream.
///
/// ```
/// use std::time::Duration;
/// use mcp_prompts::HttpOptions;
///
/// let public = HttpOptions::new()
///     .allow_hosts(["prompts.example.com"])
///     .allow_origins(["https://app.example.com"])
///     .session_idle_timeout(Duration::from_secs(600));
/// let replicas = HttpOptions::new().stateless();
/// ```
#[derive(Clone, Debug)]
pub struct HttpOptions {
    pub(super) hosts: HostPolicy,
    pub(super) origins: Vec<String>,
    pub(super) stateless: bool,
    pub(super) streams: bool,
    pub(super) idle_timeout: Duration,
    pub(super) max_sessions: usize,
    pub(super) eviction_grace: Duration,
    pub(super) max_body_bytes: Option<usize>,
    pub(super) max_connections: usize,
    pub(super) header_timeout: Duration,
    pub(super) body_timeout: Duration,
    pub(super) write_timeout: Duration,
    pub(super) drain_delay: Duration,
    pub(super) drain_timeout: Duration,
    pub(super) ready_check: Option<super::readiness::ReadyCheck>,
    #[cfg(feature = "otel")]
    pub(super) metrics: Option<crate::telemetry::otel::prometheus::Prometheus>,
    #[cfg(feature = "auth")]
    pub(super) auth: Option<super::auth::HttpAuth>,
    #[cfg(feature = "playground")]
    pub(super) playground: Option<super::playground::config::Playground>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum HostPolicy {
    /// `localhost`, `127.0.0.1`, `[::1]`, and these.
    Local(Vec<String>),
    /// Any host (the operator checks it in front of the server).
    Any,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl HttpOptions {
    /// The defaults: loopback hosts only, sessions, event streams.
    pub fn new() -> Self {
        Self {
            hosts: HostPolicy::Local(Vec::new()),
            origins: Vec::new(),
            stateless: false,
            streams: true,
            idle_timeout: Duration::from_secs(30 * 60),
            max_sessions: 10_000,
            eviction_grace: Duration::from_secs(60),
            max_body_bytes: None,
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
            drain_delay: Duration::ZERO,
            drain_timeout: Duration::from_secs(30),
            ready_check: None,
            #[cfg(feature = "otel")]
            metrics: None,
            #[cfg(feature = "auth")]
            auth: None,
            #[cfg(feature = "playground")]
            playground: None,
        }
    }

    /// The defaults for a listener on `addr`: on a loopback address,
    /// loopback hosts only; on any other, any host, and only listed origins
    /// (name your hosts with [`allow_hosts`](Self::allow_hosts) where you
    /// can).
    pub fn for_addr(addr: SocketAddr) -> Self {
        let options = Self::new();
        if addr.ip().is_loopback() {
            options
        } else {
            options.allow_any_host()
        }
    }

    /// Also accepts these host names (without port) in `Host` and in the
    /// host of an `Origin`; after [`allow_any_host`](Self::allow_any_host),
    /// restricts hosts to these (and loopback) again.
    pub fn allow_hosts<I: IntoIterator<Item = S>, S: Into<String>>(mut self, hosts: I) -> Self {
        let extra = hosts.into_iter().map(|h| h.into().to_ascii_lowercase());
        match &mut self.hosts {
            HostPolicy::Local(list) => list.extend(extra),
            HostPolicy::Any => self.hosts = HostPolicy::Local(extra.collect()),
        }
        self
    }

    /// Accepts any `Host`. An `Origin` must then be listed with
    /// [`allow_origins`](Self::allow_origins): a page from any other site,
    /// even one whose name resolves to this server (DNS rebinding), is
    /// refused. Clients that send no `Origin` (all but browsers) pass.
    pub fn allow_any_host(mut self) -> Self {
        self.hosts = HostPolicy::Any;
        self
    }

    /// Also accepts these exact origins (`https://app.example.com`), for
    /// browser clients served from another site (which also need CORS
    /// headers: add a CORS layer, such as tower-http's, in front).
    pub fn allow_origins<I: IntoIterator<Item = S>, S: Into<String>>(mut self, origins: I) -> Self {
        self.origins
            .extend(origins.into_iter().map(|o| o.into().to_ascii_lowercase()));
        self
    }

    /// No sessions: every request stands alone, so any replica behind a
    /// load balancer can answer it. `GET` and `DELETE` are 405; the
    /// revision comes from each request's `MCP-Protocol-Version` header;
    /// `logging/setLevel` lasts for its own request only.
    pub fn stateless(mut self) -> Self {
        self.stateless = true;
        self
    }

    /// Whether `GET` opens a server-to-client event stream (default) or
    /// answers 405.
    pub fn event_streams(mut self, enabled: bool) -> Self {
        self.streams = enabled;
        self
    }

    /// How long a session may stay idle before it ends (default 30
    /// minutes; at least a millisecond).
    pub fn session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// How many sessions may be live at once (default 10,000). A new one
    /// beyond that ends the least recently used, if that one has been idle
    /// for the [eviction grace](Self::eviction_grace); otherwise the
    /// `initialize` is answered 503 with `Retry-After`.
    pub fn max_sessions(mut self, max: usize) -> Self {
        self.max_sessions = max.max(1);
        self
    }

    /// How long a session must have been idle before a new session may
    /// end it to make room (default 1 minute): however fast new sessions
    /// come, none used within this time is ended early.
    pub fn eviction_grace(mut self, grace: Duration) -> Self {
        self.eviction_grace = grace;
        self
    }

    /// How many connections the ready listener
    /// ([`Service::serve_http_on`](crate::Service::serve_http_on),
    /// [`Server::serve_http`](crate::Server::serve_http)) keeps open at once
    /// (default 1,024). A new connection beyond that, or one the process has
    /// no file descriptor left for, ends the oldest connection that has not
    /// sent a whole request yet; if every connection is serving one, the new
    /// connection is refused. A router mounted in your own app is served by
    /// your listener, which sets its own limits.
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max.max(1);
        self
    }

    /// How long the ready listener waits for a request's headers, from the
    /// moment the connection opens or goes idle after an answer (default 10
    /// seconds): a client that sends half a request, or keeps an idle
    /// connection open, is disconnected after it.
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// How long a request's body may take to arrive once its headers have
    /// (default 30 seconds); a slower one is answered 408 and its
    /// connection freed.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// How long the ready listener waits for a client to take any of its
    /// answer before closing the connection (default 30 seconds). A client
    /// that asks for a large answer and never reads it would otherwise
    /// hold the answer's bytes, and their share of the server's unsent
    /// budget ([`Server::max_unsent_bytes`](crate::Server::max_unsent_bytes)),
    /// as long as it keeps the connection. Only a write that waits counts:
    /// a slow reader that keeps reading, an idle connection and an event
    /// stream with nothing to send are not cut. A router you mount
    /// yourself is served by your server, which decides this. Kept between
    /// a millisecond and a day.
    pub fn write_timeout(mut self, timeout: Duration) -> Self {
        const DAY: Duration = Duration::from_secs(24 * 60 * 60);
        self.write_timeout = timeout.clamp(Duration::from_millis(1), DAY);
        self
    }

    /// How long the ready listener ([`Service::serve_http_on`](crate::Service::serve_http_on))
    /// keeps serving once its shutdown begins, with `/readyz` answering
    /// 503 (default 0). Set it to your load balancer's probe interval (or
    /// Kubernetes' `periodSeconds` times `failureThreshold`), so that no
    /// request is sent to a server that is closing: a rolling update then
    /// loses nothing.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_prompts::HttpOptions;
    ///
    /// let behind_a_balancer = HttpOptions::new()
    ///     .stateless()
    ///     .drain_delay(Duration::from_secs(10));
    /// ```
    pub fn drain_delay(mut self, delay: Duration) -> Self {
        self.drain_delay = delay;
        self
    }

    /// How long the ready listener waits, once it has stopped accepting,
    /// for the requests in flight to be answered (and their connections
    /// to close) before it closes them (default 30 seconds). Requests
    /// arriving meanwhile are answered 503.
    pub fn drain_timeout(mut self, timeout: Duration) -> Self {
        self.drain_timeout = timeout;
        self
    }

    /// `/readyz` also answers 503 while `check` fails: say, when a folder
    /// the prompts come from can no longer be read. It runs off the
    /// runtime's threads, one at a time, at most once a second (probes
    /// meanwhile get its last answer); past 2 s it counts as failed, and a
    /// check still stuck is not started again. Why it fails is logged when
    /// readiness changes, never sent: the probes answer anyone.
    ///
    /// ```
    /// use mcp_prompts::HttpOptions;
    ///
    /// let options = HttpOptions::new().ready_when(|| {
    ///     std::fs::read_dir("prompts").map(drop).map_err(|e| format!("prompts: {e}"))
    /// });
    /// ```
    pub fn ready_when<F>(mut self, check: F) -> Self
    where
        F: Fn() -> Result<(), String> + Send + Sync + 'static,
    {
        self.ready_check = Some(super::readiness::ReadyCheck::new(check));
        self
    }

    /// Serves the metrics at `/metrics` beside the probes, for a Prometheus
    /// scrape (feature `otel`; [`HttpEndpoint::probes`](crate::HttpEndpoint::probes)
    /// and the ready listener mount it). Like the probes it answers anyone
    /// who reaches the port, without a token, and the metrics name the
    /// prompts served: mount [`Prometheus::router`](crate::otel::Prometheus::router)
    /// behind your own authorization instead where that matters.
    ///
    /// ```no_run
    /// # fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let otel = mcp_prompts::otel::Otel::builder("my-prompts").prometheus().init("warn")?;
    /// let options = mcp_prompts::HttpOptions::new().metrics(otel.prometheus().unwrap());
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "otel")]
    pub fn metrics(mut self, metrics: crate::telemetry::otel::prometheus::Prometheus) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// Verifies every request's bearer token, and serves the Protected
    /// Resource Metadata beside the endpoint (feature `auth`); see
    /// [`HttpAuth`](crate::HttpAuth).
    #[cfg(feature = "auth")]
    pub fn auth(mut self, auth: super::auth::HttpAuth) -> Self {
        self.auth = Some(auth);
        self
    }

    /// Serves the playground beside the endpoint (feature `playground`):
    /// at `/playground` when the endpoint is at `/mcp`, a page where a
    /// person tries every prompt with a form built from its arguments
    /// ([the playground](crate::guide::playground)).
    #[cfg(feature = "playground")]
    pub fn playground(mut self, playground: super::playground::config::Playground) -> Self {
        self.playground = Some(playground);
        self
    }

    /// Whether requests' tokens are verified.
    #[cfg_attr(not(feature = "auth"), allow(clippy::unused_self))]
    pub(crate) fn verifies_tokens(&self) -> bool {
        #[cfg(feature = "auth")]
        return self.auth.is_some();
        #[cfg(not(feature = "auth"))]
        false
    }

    /// The largest request body accepted (default: the server's
    /// [`max_message_bytes`](crate::Server::max_message_bytes)); a larger
    /// one is answered 413.
    pub fn max_body_bytes(mut self, limit: usize) -> Self {
        self.max_body_bytes = Some(limit.max(1));
        self
    }
}
