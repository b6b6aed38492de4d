//! Tools from rmcp, the official Rust SDK, and prompts from mcp-prompts, in
//! one server: rmcp's `#[tool_router]` serves `word_count`, and the
//! showcase's catalog answers the prompt methods.
//!
//! - `cargo run --example with_rmcp` serves it over stdio (rmcp's transport);
//! - `cargo run --example with_rmcp -- --http 127.0.0.1:8080` over rmcp's
//!   Streamable HTTP at `http://127.0.0.1:8080/mcp`; add `--auth-issuer URL`
//!   to verify every request's bearer token (JWTs that issuer signs for
//!   that URL): rmcp hands the request's caller over, so `whoami` knows
//!   who asks and `deploy_notes` is shown only with the `deploy` scope.
//! - `--prompts-as-tools` adds the prompt tools (`list_prompts`,
//!   `get_prompt`) to rmcp's tool router, for hosts that show no prompts.
//! - `--skills-dir DIR` serves the Agent Skills under DIR through rmcp's
//!   skill and resource hooks (`serve_skills!`); repeatable.
//! - `--prompts-dir DIR` also serves DIR's prompt files, kept in step with
//!   the folder: clients hear of each change (`notifications/prompts/list_changed`,
//!   on a 2026-07-28 client's `subscriptions/listen`).

#[path = "showcase/caller_prompts.rs"]
mod caller_prompts;
#[path = "showcase/prompts.rs"]
mod prompts;

use clap::Parser;
use mcp_prompts::rmcp::RmcpPrompts;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, Implementation, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct WordCount {
    /// The text whose words to count
    text: String,
}

#[derive(Clone)]
struct Assistant {
    tool_router: ToolRouter<Self>,
    prompts: RmcpPrompts,
}

#[tool_router]
impl Assistant {
    fn new(prompts: &mcp_prompts::Service, prompts_as_tools: bool) -> Self {
        let mut tool_router = Self::tool_router();
        if prompts_as_tools {
            tool_router += RmcpPrompts::tool_router(|assistant: &Self| &assistant.prompts);
        }
        Self {
            tool_router,
            prompts: RmcpPrompts::new(prompts),
        }
    }

    /// Count the words of a text
    #[tool]
    #[allow(clippy::unused_self)] // rmcp's tools are methods
    fn word_count(&self, Parameters(WordCount { text }): Parameters<WordCount>) -> String {
        format!("{} words", text.split_whitespace().count())
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Assistant {
    // Tool calls watched as the prompts are: a span `tools/call NAME` in
    // the MCP conventions, a log line, the duration metric.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.prompts
            .serve_tool_call(self, &self.tool_router, request, context)
            .await
    }

    fn get_info(&self) -> ServerConfig {
        let tools = ServerCapabilities::builder().enable_tools().build();
        ServerConfig::new(self.prompts.capabilities(tools)).with_server_info(Implementation::new(
            "mcp-prompts-with-rmcp",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    mcp_prompts::rmcp::serve_prompts!(prompts);
    mcp_prompts::rmcp::serve_skills!(prompts);
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Logs on stderr, filtered by RUST_LOG (`mcp_prompts=info`: a line per
    // request); traces and metrics to OTEL_EXPORTER_OTLP_ENDPOINT when set.
    let otel = mcp_prompts::otel::init("mcp-prompts-with-rmcp", "warn")?;
    // A mistake exits 2 with clap's message; --help lists the options.
    let args = Args::parse();
    let issuer = args.issuer.clone();
    let as_tools = args.prompts_as_tools;
    let catalog = match issuer {
        Some(_) => caller_prompts::CATALOG_WITH_AUTH,
        None => prompts::CATALOG,
    };
    let mut server = mcp_prompts::Server::new("mcp-prompts-with-rmcp", env!("CARGO_PKG_VERSION"))
        .catalog(catalog)
        .translations(prompts::translations());
    for dir in &args.skills_dirs {
        server = server.skills_dir(dir);
    }
    // With prompt files the catalog changes while serving; without, it is
    // fixed.
    let (prompts, _dir) = match &args.prompts_dir {
        Some(dir) => {
            let (service, live) = server.build_live()?;
            (service, Some(mcp_prompts::PromptDir::watch(dir, &live)?))
        }
        None => (server.build()?, None),
    };
    match &args.http {
        None => {
            eprintln!(
                "with_rmcp: serving a tool and {} prompts over stdio",
                prompts.prompt_count()
            );
            Assistant::new(&prompts, as_tools)
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
        }
        Some(addr) => serve_http(prompts, addr, issuer, as_tools).await?,
    }
    // What is still buffered is sent before the process ends.
    otel.shutdown()?;
    Ok(())
}

/// rmcp's tool `word_count` and mcp-prompts' showcase prompts in one rmcp
/// server, over stdio unless --http is given.
// The doc comments are the `--help` text, printed as written.
#[allow(clippy::doc_markdown)]
#[derive(Debug, Parser)]
#[command(name = "with_rmcp")]
struct Args {
    /// Serve rmcp's Streamable HTTP at http://ADDR/mcp instead of stdio.
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
    /// With --http: verify every request's bearer token, a JWT this issuer
    /// signs for http://ADDR/mcp.
    #[arg(long = "auth-issuer", value_name = "URL", requires = "http")]
    issuer: Option<String>,
    /// Also offer the prompts as the tools list_prompts and get_prompt.
    #[arg(long)]
    prompts_as_tools: bool,
    /// Also serve DIR's prompt files, kept in step with it.
    #[arg(long, value_name = "DIR")]
    prompts_dir: Option<std::path::PathBuf>,
    /// Also serve the Agent Skills under DIR; give it again for more.
    #[arg(long = "skills-dir", value_name = "DIR")]
    skills_dirs: Vec<std::path::PathBuf>,
}

/// rmcp's Streamable HTTP, in axum, at `/mcp`; one handler per session.
async fn serve_http(
    prompts: mcp_prompts::Service,
    addr: &str,
    issuer: Option<String>,
    as_tools: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    let catalog = prompts.clone();
    let service: StreamableHttpService<Assistant, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(Assistant::new(&catalog, as_tools)),
        std::sync::Arc::default(),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!(
        "with_rmcp: serving at http://{}/mcp; Ctrl-C stops",
        listener.local_addr()?
    );
    let mut router = axum::Router::new().nest_service("/mcp", service);
    if let Some(issuer) = issuer {
        // Every request verified before rmcp sees it; the metadata served
        // beside it, listing the scopes the prompts ask for.
        let resource = format!("http://{}/mcp", listener.local_addr()?);
        let auth = mcp_prompts::HttpAuth::jwt(resource, issuer).advertise_scopes_of(&prompts);
        router = auth.protect(router);
    }
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
