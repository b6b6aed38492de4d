//! A team's MCP server in one place; `README.md` beside this file walks
//! through it.
//!
//! `cargo run --example team_server -- --auth-issuer URL` serves, at
//! `http://127.0.0.1:8080/mcp` over rmcp's Streamable HTTP:
//!
//! - the prompts in `prompts.rs`;
//! - the team's Claude Code commands (`.claude/commands`) and VS Code prompt
//!   files (`.github/prompts`), reloaded as they change;
//! - rmcp's tool `reading_time`, and the prompts as two tools for hosts that
//!   show only tools;
//! - to callers with a JWT that `URL` signs for this server.
//!
//! Options: `--http ADDR` (default `127.0.0.1:8080`), `--repo DIR` (the
//! repository whose folders to serve; default this example's folder),
//! `--auth-audience URL` (the server's public URL, which tokens must name;
//! default `http://ADDR/mcp`).

mod prompts;

use std::path::PathBuf;

use clap::Parser;
use mcp_prompts::rmcp::RmcpPrompts;
use mcp_prompts::{HttpAuth, PromptDir, Server, Service};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct ReadingTime {
    /// The text to be read
    text: String,
}

/// One client's session: rmcp's tools and the team's prompts.
#[derive(Clone)]
struct TeamServer {
    tool_router: ToolRouter<Self>,
    prompts: RmcpPrompts,
}

#[tool_router]
impl TeamServer {
    fn new(catalog: &Service) -> Self {
        Self {
            // The prompts as tools (`list_prompts`, `get_prompt`) beside our own.
            tool_router: Self::tool_router()
                + RmcpPrompts::tool_router(|server: &Self| &server.prompts),
            prompts: RmcpPrompts::new(catalog),
        }
    }

    /// How long a text takes to read, at 200 words a minute
    #[tool]
    #[allow(clippy::unused_self)] // rmcp's tools are methods
    fn reading_time(&self, Parameters(ReadingTime { text }): Parameters<ReadingTime>) -> String {
        let words = text.split_whitespace().count();
        format!("{words} words: about {} min", words.div_ceil(200).max(1))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TeamServer {
    fn get_info(&self) -> ServerConfig {
        let tools = ServerCapabilities::builder().enable_tools().build();
        ServerConfig::new(self.prompts.capabilities(tools)).with_server_info(Implementation::new(
            "team-server",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    mcp_prompts::rmcp::serve_prompts!(prompts);
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Logs on stderr: a prompt file that cannot be served is a warning with
    // its path and line.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    // A mistake exits 2 with clap's message; --help lists the options.
    let options = Options::parse();

    // The Rust prompts (every #[prompt] in the binary), and a live catalog
    // the prompt folders join and leave as their files change.
    let (catalog, live) = Server::new("team-server", env!("CARGO_PKG_VERSION")).build_live()?;
    let mut folders = Vec::new();
    for folder in [".claude/commands", ".github/prompts"] {
        let dir = options.repo.join(folder);
        if dir.is_dir() {
            folders.push(PromptDir::watch(&dir, &live)?); // watched while kept
        }
    }

    let listener = tokio::net::TcpListener::bind(&options.addr).await?;
    let addr = listener.local_addr()?;
    let audience = options
        .audience
        .unwrap_or_else(|| format!("http://{addr}/mcp"));

    // rmcp's Streamable HTTP, one `TeamServer` per session.
    let sessions = catalog.clone();
    let mcp: StreamableHttpService<TeamServer, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(TeamServer::new(&sessions)),
        std::sync::Arc::default(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", mcp);
    // Every request's bearer token verified before rmcp sees it; the
    // Protected Resource Metadata served beside it, with the scopes the
    // prompts ask for. Without an issuer, scoped prompts stay hidden.
    let router = match &options.issuer {
        Some(issuer) => HttpAuth::jwt(audience.as_str(), issuer.as_str())
            .advertise_scopes_of(&catalog)
            .protect(router),
        None => router,
    };

    eprintln!(
        "team_server: {} prompts at http://{addr}/mcp{}; Ctrl-C stops",
        catalog.prompt_count(),
        if options.issuer.is_some() {
            ", tokens checked"
        } else {
            ", no tokens checked"
        },
    );
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    drop(folders);
    Ok(())
}

/// A team's prompt server: the commands, prompts and skills of its
/// repository, and prompts of its own, over Streamable HTTP.
// The doc comments are the `--help` text, printed as written.
#[allow(clippy::doc_markdown)]
#[derive(Debug, Parser)]
#[command(name = "team_server")]
struct Options {
    /// Where to listen: http://ADDR/mcp.
    #[arg(long = "http", value_name = "ADDR", default_value = "127.0.0.1:8080")]
    addr: String,
    /// The team's repository.
    #[arg(
        long,
        value_name = "DIR",
        default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/team_server")
    )]
    repo: PathBuf,
    /// Verify every request's bearer token, a JWT this issuer signs.
    #[arg(long = "auth-issuer", value_name = "URL")]
    issuer: Option<String>,
    /// The resource URL tokens must name, if not http://ADDR/mcp.
    #[arg(long = "auth-audience", value_name = "URL", requires = "issuer")]
    audience: Option<String>,
}
