//! Streamable HTTP (revisions 2025-03-26 to 2025-11-25): one endpoint
//! taking `POST` (a message), `GET` (a server-to-client event stream) and
//! `DELETE` (end the session), as an axum router to mount in an app, or a
//! ready listener.

#[cfg(feature = "auth")]
mod auth;
mod body;
mod guard;
mod handlers;
mod header_facts;
mod header_timer;
#[cfg(feature = "cli")]
mod issuer;
mod listener;
#[cfg(feature = "otel")]
mod metrics;
mod network;
mod options;
#[cfg(feature = "playground")]
mod playground;
mod probes;
mod readiness;
mod request_route;
mod respond;
mod sessions;
mod stall;
mod stateless;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::routing::post;
use tokio::net::TcpListener;

#[cfg(feature = "auth")]
pub use auth::{HttpAuth, JwtAlgorithm, JwtVerifier, TokenError, TokenVerifier};
#[cfg(feature = "cli")]
pub(crate) use issuer::verify_issuer_tokens;
pub use options::HttpOptions;
#[cfg(feature = "playground")]
pub use playground::Playground;

use crate::server::{Server, Service};
use respond::Endpoint;

/// -32020: an HTTP header disagrees with the body, or is missing.
const HEADER_MISMATCH: i32 = -32020;

/// The path [`Server::serve_http`] serves MCP at.
pub const DEFAULT_PATH: &str = "/mcp";

/// One Streamable HTTP endpoint of a [`Service`]: its sessions and
/// options. Mount its [`router`](Self::router) in your axum app, so that
/// your middleware (auth, TLS, tracing, limits) applies, and call
/// [`shut_down`](Self::shut_down) when your server begins a graceful
/// shutdown, so that open event streams end and the shutdown can finish.
///
/// ```no_run
/// use axum::{Router, routing::get};
/// use mcp_prompts::{HttpOptions, Server};
///
/// # async fn run() -> std::io::Result<()> {
/// let service = Server::new("prompts", "1.0").build().unwrap();
/// let mcp = service.http_endpoint(HttpOptions::new());
/// let app = Router::new()
///     .route("/health", get(|| async { "ok" }))
///     .merge(mcp.router("/mcp"));
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// axum::serve(listener, app)
///     .with_graceful_shutdown(async move {
///         let _ = tokio::signal::ctrl_c().await;
///         mcp.shut_down();
///     })
///     .await
/// # }
/// ```
#[derive(Clone)]
pub struct HttpEndpoint(Arc<Endpoint>);

impl HttpEndpoint {
    /// An axum router serving this endpoint at `path`.
    pub fn router(&self, path: &str) -> Router {
        router(Arc::clone(&self.0), path)
    }

    /// Ends every session and open event stream: call it when a graceful
    /// shutdown begins, since a stream would otherwise keep it waiting.
    /// Requests that still come are answered 503.
    pub fn shut_down(&self) {
        self.0.shut_down();
    }

    /// `/healthz` (200 while the process serves) and `/readyz` (200, or
    /// 503 once [`drain`](Self::drain) or [`shut_down`](Self::shut_down)
    /// was called, or while [`HttpOptions::ready_when`]'s check fails), for
    /// a load balancer's or Kubernetes' probes: mount them outside your
    /// authorization. With [`HttpOptions::metrics`], `/metrics` too. The
    /// ready listener ([`Service::serve_http_on`]) serves them.
    ///
    /// ```no_run
    /// use mcp_prompts::{HttpOptions, Server};
    ///
    /// # async fn run() -> std::io::Result<()> {
    /// let service = Server::new("prompts", "1.0").build().unwrap();
    /// let mcp = service.http_endpoint(HttpOptions::new());
    /// let app = mcp.router("/mcp").merge(mcp.probes());
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// axum::serve(listener, app)
    ///     .with_graceful_shutdown(async move {
    ///         mcp_prompts::shutdown_signal().await;
    ///         mcp.drain();
    ///         // Served on until the balancer's probe has seen it.
    ///         tokio::time::sleep(std::time::Duration::from_secs(10)).await;
    ///         mcp.shut_down();
    ///     })
    ///     .await
    /// # }
    /// ```
    pub fn probes(&self) -> Router {
        probes::routes(Arc::clone(&self.0))
    }

    /// A shutdown begins: `/readyz` answers 503 from now on, and requests
    /// are still served, until [`shut_down`](Self::shut_down).
    pub fn drain(&self) {
        self.0.drain();
    }
}

impl std::fmt::Debug for HttpEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpEndpoint")
            .field("options", &self.0.options)
            .finish_non_exhaustive()
    }
}

impl Service {
    /// A Streamable HTTP endpoint serving this service.
    pub fn http_endpoint(&self, options: HttpOptions) -> HttpEndpoint {
        if !options.verifies_tokens() {
            warn_of_hidden_prompts(self);
        }
        #[cfg(feature = "otel")]
        if options.metrics.is_some() && options.verifies_tokens() {
            tracing::warn!(
                "/metrics answers without a token, and its series name the prompts used, \
                 those only some callers may see among them: mount Prometheus::router behind \
                 your own authorization if that matters"
            );
        }
        super::empty::warn_if_empty(self);
        HttpEndpoint(Arc::new(Endpoint::new(self.clone(), options)))
    }

    /// An axum router serving MCP at `path`: the shortest way to mount it
    /// when the app never shuts down gracefully. Otherwise keep the
    /// [`HttpEndpoint`] to shut it down.
    pub fn http_router(&self, path: &str, options: HttpOptions) -> Router {
        self.http_endpoint(options).router(path)
    }

    /// Serves MCP at [`DEFAULT_PATH`] on `listener`, with `/healthz` and
    /// `/readyz` ([`HttpEndpoint::probes`]), until `shutdown` completes;
    /// then `/readyz` fails and it serves on for
    /// [`drain_delay`](HttpOptions::drain_delay), stops accepting, ends
    /// open event streams, answers new requests 503, and returns once
    /// requests in flight are answered (within
    /// [`drain_timeout`](HttpOptions::drain_timeout)).
    pub async fn serve_http_on<F>(
        &self,
        listener: TcpListener,
        options: HttpOptions,
        shutdown: F,
    ) -> io::Result<()>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let max_connections = options.max_connections;
        let timeouts = listener::Timeouts {
            header: options.header_timeout,
            write: options.write_timeout,
            drain: options.drain_timeout,
        };
        let drain_delay = options.drain_delay;
        let addr = listener.local_addr().ok();
        #[cfg(feature = "playground")]
        let options = playground::with_own_origins(options, addr);
        let endpoint = self.http_endpoint(options);
        let app = endpoint.router(DEFAULT_PATH).merge(endpoint.probes());
        tracing::info!(
            ?addr,
            prompts = self.prompt_count(),
            "serving MCP over HTTP"
        );
        let served = listener::serve(listener, app, max_connections, timeouts, async move {
            shutdown.await;
            // Not ready, and still serving until the balancer has seen it.
            endpoint.drain();
            tracing::info!(?drain_delay, "shutting down: draining");
            tokio::time::sleep(drain_delay).await;
            endpoint.shut_down();
        })
        .await;
        tracing::info!(?served, "HTTP server stopped");
        served
    }
}

impl Server {
    /// Validates the catalog and serves it over Streamable HTTP at
    /// `http://{addr}/mcp` until Ctrl-C or SIGTERM, with
    /// [`HttpOptions::for_addr`]. Bind `127.0.0.1` unless the server must be
    /// reachable from other machines.
    ///
    /// ```no_run
    /// #[tokio::main]
    /// async fn main() -> std::io::Result<()> {
    ///     mcp_prompts::Server::new("my-prompts", "1.0")
    ///         .serve_http(([127, 0, 0, 1], 8080).into())
    ///         .await
    /// }
    /// ```
    pub async fn serve_http(self, addr: SocketAddr) -> io::Result<()> {
        let service = self
            .build()
            .map_err(|err| io::Error::new(io::ErrorKind::InvalidInput, err))?;
        service.serve_http(addr).await
    }
}

impl Service {
    /// Serves this service over Streamable HTTP at `http://{addr}/mcp`
    /// until Ctrl-C or SIGTERM; see [`Server::serve_http`]. For a live
    /// catalog, built with [`Server::build_live`].
    ///
    /// ```no_run
    /// #[tokio::main]
    /// async fn main() -> std::io::Result<()> {
    ///     let (service, _prompts) = mcp_prompts::Server::new("my-prompts", "1.0")
    ///         .build_live()
    ///         .map_err(std::io::Error::other)?;
    ///     service.serve_http(([127, 0, 0, 1], 8080).into()).await
    /// }
    /// ```
    pub async fn serve_http(&self, addr: SocketAddr) -> io::Result<()> {
        let listener = TcpListener::bind(addr).await?;
        self.serve_http_on(
            listener,
            HttpOptions::for_addr(addr),
            super::shutdown_signal(),
        )
        .await
    }
}

fn router(endpoint: Arc<Endpoint>, path: &str) -> Router {
    #[cfg(feature = "playground")]
    if let Some(page) = playground::routes(&endpoint, path) {
        return mcp_router(endpoint, path).merge(page);
    }
    mcp_router(endpoint, path)
}

fn mcp_router(endpoint: Arc<Endpoint>, path: &str) -> Router {
    // The POST handler reads the body itself, within the limit, once the
    // headers have passed their checks. Each handler refuses requests
    // once the endpoint has shut down.
    let routes = post(handlers::post)
        .get(handlers::get)
        .delete(handlers::delete);
    #[cfg(feature = "auth")]
    if let Some(auth) = &endpoint.options.auth {
        // Every method is verified before its handler runs, and the
        // metadata is served beside the endpoint.
        let auth = auth.for_service(&endpoint.service);
        let metadata = auth.metadata_router();
        let guard = Arc::new(auth::Guard::for_endpoint(auth));
        let layer = axum::middleware::from_fn_with_state(guard, auth::require_bearer);
        // Refused at shutdown before the token is verified.
        let closed = axum::middleware::from_fn_with_state(
            Arc::clone(&endpoint),
            probes::refuse_when_shut_down,
        );
        let routes = routes.route_layer(layer).route_layer(closed);
        return Router::new()
            .route(path, routes)
            .with_state(endpoint)
            .merge(metadata);
    }
    Router::new().route(path, routes).with_state(endpoint)
}

/// Prompts that only some callers may see are hidden over HTTP from
/// requests that prove no caller: without token verification, that is
/// every request, unless the app's own middleware hands callers over.
fn warn_of_hidden_prompts(service: &Service) {
    let served = service.snapshot();
    let hidden: Vec<&str> = served
        .restricted()
        .map(|(prompt, _)| prompt.name())
        .collect();
    if !hidden.is_empty() {
        tracing::warn!(
            prompts = ?hidden,
            "these prompts are shown only to callers with the scopes they need, and this HTTP \
             endpoint verifies no tokens: they are hidden unless your middleware hands over callers"
        );
    }
}
