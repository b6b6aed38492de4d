//! Streamable HTTP (revisions 2025-03-26 to 2025-11-25): one endpoint
//! taking `POST` (a message), `GET` (a server-to-client event stream) and
//! `DELETE` (end the session), as an axum router to mount in an app, or a
//! ready listener.

mod guard;
mod handlers;
mod options;
mod sessions;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::post;
use tokio::net::TcpListener;

pub use options::HttpOptions;

use crate::server::{Server, Service};
use handlers::Endpoint;

/// The path [`Server::serve_http`] serves MCP at.
pub const DEFAULT_PATH: &str = "/mcp";

impl Service {
    /// An axum router serving MCP at `path`, to merge into your own app so
    /// that your middleware (auth, TLS, tracing, limits) applies.
    ///
    /// ```no_run
    /// use axum::{Router, routing::get};
    /// use mcp_prompts::{HttpOptions, Server};
    ///
    /// # async fn run() -> std::io::Result<()> {
    /// let service = Server::new("prompts", "1.0").build().unwrap();
    /// let app = Router::new()
    ///     .route("/health", get(|| async { "ok" }))
    ///     .merge(service.http_router("/mcp", HttpOptions::new()));
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// axum::serve(listener, app).await
    /// # }
    /// ```
    pub fn http_router(&self, path: &str, options: HttpOptions) -> Router {
        router(Arc::new(Endpoint::new(self.clone(), options)), path)
    }

    /// Serves MCP at [`DEFAULT_PATH`] on `listener` until `shutdown`
    /// completes; then stops accepting, ends open event streams, and
    /// returns once requests in flight are answered.
    pub async fn serve_http_on<F>(
        &self,
        listener: TcpListener,
        options: HttpOptions,
        shutdown: F,
    ) -> io::Result<()>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let endpoint = Arc::new(Endpoint::new(self.clone(), options));
        let app = router(Arc::clone(&endpoint), DEFAULT_PATH);
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                shutdown.await;
                endpoint.shut_down();
            })
            .await
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
        let listener = TcpListener::bind(addr).await?;
        service
            .serve_http_on(listener, HttpOptions::for_addr(addr), shutdown_signal())
            .await
    }
}

fn router(endpoint: Arc<Endpoint>, path: &str) -> Router {
    let limit = endpoint
        .options
        .max_body_bytes
        .unwrap_or(endpoint.service.max_message_bytes());
    Router::new()
        .route(
            path,
            post(handlers::post)
                .get(handlers::get)
                .delete(handlers::delete),
        )
        .layer(DefaultBodyLimit::max(limit))
        .with_state(endpoint)
}

/// Ctrl-C, or SIGTERM where there is one.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
