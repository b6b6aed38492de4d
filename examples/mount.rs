//! Mounting the MCP endpoint in an existing axum app, behind the app's own
//! middleware (here, a bearer token check, which hands the caller it
//! proves to the prompts) next to its other routes.
//!
//! `MCP_TOKEN=secret cargo run --example mount`, then connect a client to
//! `http://127.0.0.1:8080/mcp` with `Authorization: Bearer secret`.

use axum::Router;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use mcp_prompts::{Caller, HttpOptions, RequestContext, Server, catalog, prompt};

/// Say hello
#[prompt]
fn hello(
    ctx: RequestContext,
    /// Who to greet
    name: String,
) -> String {
    let from = ctx.caller().map_or("someone", Caller::subject);
    format!("Say hello to {name} from {from}.")
}

/// Lets a request through only with the configured bearer token, and
/// says who it is: a [`Caller`] in the request's extensions reaches
/// `RequestContext::caller` and decides which prompts it sees.
async fn require_token(mut request: Request, next: Next) -> Result<Response, StatusCode> {
    let expected = std::env::var("MCP_TOKEN").unwrap_or_default();
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if !expected.is_empty() && given == Some(expected.as_str()) {
        request
            .extensions_mut()
            .insert(Caller::new("token-holder").with_scopes(["prompts"]));
        Ok(next.run(request).await)
    } else {
        Err(StatusCode::UNAUTHORIZED)
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let service = Server::new("mounted", "1.0")
        .catalog(catalog![hello])
        .build()
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    let mcp = service.http_endpoint(HttpOptions::new());
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .merge(mcp.router("/mcp").layer(middleware::from_fn(require_token)));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    eprintln!("MCP at http://127.0.0.1:8080/mcp, health at /health; Ctrl-C stops");
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            // Ends open event streams, which would keep shutdown waiting.
            mcp.shut_down();
        })
        .await
}
