//! The showcase: every kind of prompt mcp-prompts supports.
//!
//! - `cargo run --example showcase` serves it over stdio; let a client start
//!   it: `npx @modelcontextprotocol/inspector cargo run --example showcase`.
//! - `cargo run --example showcase -- --http 127.0.0.1:8080` serves it over
//!   Streamable HTTP at `http://127.0.0.1:8080/mcp`; add `--stateless` for
//!   the session-less mode replicas use.

mod prompts;

use std::net::SocketAddr;

use mcp_prompts::{HttpOptions, Server};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    // Logs go to stderr (stdout is the MCP channel), filtered by RUST_LOG:
    // errors by default, with the id a client got in its -32603.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error")),
        )
        .init();
    let args = Args::parse()?;
    let service = Server::new("mcp-prompts-showcase", env!("CARGO_PKG_VERSION"))
        .catalog(prompts::CATALOG)
        .title("mcp-prompts showcase")
        .instructions("Example prompts: code review, summaries, greetings, release notes, and the MCP conformance fixtures.")
        .build()
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    let count = service.prompt_count();
    match args.http {
        Some(addr) => {
            let mut options = HttpOptions::for_addr(addr);
            if args.stateless {
                options = options.stateless();
            }
            let listener = tokio::net::TcpListener::bind(addr).await?;
            eprintln!(
                "mcp-prompts showcase: serving {count} prompts at http://{}/mcp{}; Ctrl-C stops.",
                listener.local_addr()?,
                if args.stateless { " (stateless)" } else { "" }
            );
            service
                .serve_http_on(listener, options, async {
                    let _ = tokio::signal::ctrl_c().await;
                })
                .await
        }
        None => {
            eprintln!(
                "mcp-prompts showcase: serving {count} prompts over stdio (newline-delimited JSON-RPC).\n\
                 Connect a client by letting it start this command, for example:\n  \
                 npx @modelcontextprotocol/inspector cargo run --example showcase\n\
                 Or serve over HTTP: cargo run --example showcase -- --http 127.0.0.1:8080"
            );
            service
                .serve_io(tokio::io::stdin(), tokio::io::stdout())
                .await
        }
    }
}

/// Where `--http` without an address listens.
const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// `--http [ADDR | PORT]` and `--stateless`; anything else is an error.
struct Args {
    http: Option<SocketAddr>,
    stateless: bool,
}

impl Args {
    fn parse() -> std::io::Result<Self> {
        let invalid =
            |message: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, message);
        let mut args = Self {
            http: None,
            stateless: false,
        };
        let mut words = std::env::args().skip(1);
        let mut pending: Option<String> = None;
        while let Some(word) = pending.take().or_else(|| words.next()) {
            match word.as_str() {
                "--http" => {
                    // Loopback unless told otherwise: `--http`, `--http 9000`.
                    let addr = match words.next() {
                        None => DEFAULT_ADDR.into(),
                        Some(flag) if flag.starts_with("--") => {
                            pending = Some(flag);
                            DEFAULT_ADDR.into()
                        }
                        Some(port) if port.parse::<u16>().is_ok() => format!("127.0.0.1:{port}"),
                        Some(addr) => addr,
                    };
                    args.http = Some(
                        addr.parse()
                            .map_err(|err| invalid(format!("--http {addr}: {err}")))?,
                    );
                }
                "--stateless" => args.stateless = true,
                other => {
                    return Err(invalid(format!(
                        "unknown option `{other}`; usage: showcase [--http [ADDR | PORT] [--stateless]]"
                    )));
                }
            }
        }
        Ok(args)
    }
}
