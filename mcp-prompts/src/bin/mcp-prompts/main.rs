//! `mcp-prompts serve DIR`: a folder of prompt files served over MCP, with
//! no Rust to write (feature `cli`). Over stdio by default, or Streamable
//! HTTP with `--http`; the folder is watched, and a file that cannot be
//! served is reported with its path and line.

#![forbid(unsafe_code)]

mod args;

use std::io::{Error, ErrorKind};

use args::{Command, Serve};
use mcp_prompts::{HttpAuth, HttpOptions, JwtVerifier, PromptDir, Server};

/// The environment variable holding the key that signs question rounds.
const REQUEST_STATE_SECRET: &str = "MCP_PROMPTS_REQUEST_STATE_SECRET";

fn main() -> std::io::Result<()> {
    let serve = match Command::parse(std::env::args().skip(1)) {
        Ok(Command::Serve(serve)) => serve,
        Ok(Command::Help) => {
            println!("{}", args::USAGE);
            return Ok(());
        }
        Ok(Command::Version) => {
            println!("mcp-prompts {}", env!("CARGO_PKG_VERSION"));
            return Ok(());
        }
        Err(problem) => {
            eprintln!("mcp-prompts: {problem}\n\n{}", args::USAGE);
            std::process::exit(2);
        }
    };
    // Logs go to stderr (stdout may be the MCP channel).
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(run(serve))
}

async fn run(serve: Serve) -> std::io::Result<()> {
    let invalid = |err: mcp_prompts::CatalogError| Error::new(ErrorKind::InvalidInput, err);
    let mut server = Server::new("mcp-prompts", env!("CARGO_PKG_VERSION"))
        .prompts(std::iter::empty::<mcp_prompts::AnyPrompt>());
    if serve.prompts_as_tools {
        server = server.prompts_as_tools();
    }
    if let Some(secret) = std::env::var_os(REQUEST_STATE_SECRET) {
        server = server.request_state_secret(secret.as_encoded_bytes());
    }
    let (service, prompts) = server.build_live().map_err(invalid)?;
    let dir = PromptDir::watch(&serve.dir, &prompts)?;
    // The files that cannot be served, at start; later ones are logged.
    for problem in dir.problems() {
        eprintln!("mcp-prompts: not served: {problem}");
    }
    let count = dir.served().len();
    let Some(addr) = serve.http else {
        eprintln!(
            "mcp-prompts: serving {count} prompts from {} over stdio",
            serve.dir.display()
        );
        return service.serve_stdio().await;
    };
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let mut options = HttpOptions::for_addr(bound);
    if serve.stateless {
        options = options.stateless();
    }
    if let Some(auth) = &serve.auth {
        let resource = (auth.audience.clone())
            .unwrap_or_else(|| format!("http://{bound}{}", mcp_prompts::DEFAULT_PATH));
        let mut verifier = JwtVerifier::new(&auth.issuer, &resource);
        if let Some(jwks) = &auth.jwks {
            verifier = verifier.jwks_url(jwks);
        }
        let auth = HttpAuth::new(resource, verifier).authorization_server(&auth.issuer);
        options = options.auth(auth);
    }
    eprintln!(
        "mcp-prompts: serving {count} prompts from {} at http://{bound}{}; Ctrl-C stops",
        serve.dir.display(),
        mcp_prompts::DEFAULT_PATH
    );
    service
        .serve_http_on(listener, options, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
