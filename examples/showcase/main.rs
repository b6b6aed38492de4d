//! The showcase: every kind of prompt mcp-prompts supports.
//!
//! - `cargo run --example showcase` serves it over stdio; let a client start
//!   it: `npx @modelcontextprotocol/inspector cargo run --example showcase`.
//! - `cargo run --example showcase -- --http 127.0.0.1:8080` serves it over
//!   Streamable HTTP at `http://127.0.0.1:8080/mcp`; add `--stateless` for
//!   the session-less mode replicas use, `--playground` for a page at
//!   `http://127.0.0.1:8080/playground` to try every prompt in a browser,
//!   `--metrics` for a Prometheus scrape at `/metrics`; `/healthz` and
//!   `/readyz` answer probes.
//! - `--prompts-dir DIR` also serves DIR's prompt files (`*.md`), kept in
//!   step with the directory while serving: try `examples/prompt-files`.
//! - `--auth-issuer URL` (with `--http`) verifies every request's bearer
//!   token: JWTs that issuer signs for `http://ADDR/mcp` (`--auth-audience
//!   URL` names another resource URL, `--auth-jwks URL` the keys' URL).
//!   `deploy_notes` then needs the `deploy` scope, and `whoami` says who
//!   is asking.
//! - `--skills-dir DIR` serves the Agent Skills under DIR (MCP's skills
//!   extension, their files as `skill://` resources); repeatable: try
//!   `examples/skills`. `--skills-as-prompts` also serves each skill as a
//!   prompt, for hosts that know no skills.
//! - The skill `showcase-guide` (`examples/showcase/skills/showcase-guide/`)
//!   is embedded in the binary when it compiles, and served always.
//! - `--prompts-as-tools` also offers the prompts as two tools,
//!   `list_prompts` and `get_prompt`, for hosts that show tools but not
//!   prompts.
//! - `check [DIR...]` checks the showcase's prompts and any folders of
//!   prompt files; `render NAME [ARG=VALUE]...` prints what a prompt gives
//!   (`cargo run --example showcase -- render greet name=Ann`); `catalog`
//!   prints the catalog document committed as `prompts.lock.json`, and
//!   `check --against examples/showcase/prompts.lock.json` fails on a
//!   breaking change to it.
//! - `MCP_PROMPTS_REQUEST_STATE_SECRET` (at least 32 bytes) is the key that
//!   signs 2026-07-28 question rounds: replicas given the same one answer
//!   each other's rounds.

mod caller_prompts;
mod prompts;

// How to use this server, as an Agent Skill that ships inside the binary.
mcp_prompts::include_skill!("examples/showcase/skills/showcase-guide");

use std::net::SocketAddr;

use clap::Parser;

use mcp_prompts::{HttpAuth, HttpOptions, Icon, JwtVerifier, Playground, PromptDir, Server};

/// The environment variable holding the key that signs question rounds.
const REQUEST_STATE_SECRET: &str = "MCP_PROMPTS_REQUEST_STATE_SECRET";

fn main() -> std::process::ExitCode {
    // `check [DIR...]`, `render NAME [ARG=VALUE]...`, `catalog`, `list` and
    // `diff OLD NEW` over the showcase's own prompts (and any folders
    // named): the library's command line.
    let commands = ["check", "render", "catalog", "list", "diff"];
    if std::env::args()
        .nth(1)
        .is_some_and(|word| commands.contains(&word.as_str()))
    {
        let server = Server::new("mcp-prompts-showcase", env!("CARGO_PKG_VERSION"))
            .catalog(prompts::CATALOG)
            .translations(prompts::translations());
        return mcp_prompts::cli::run(server);
    }
    // A mistake exits 2 with clap's message; --help and --version exit 0.
    let args = Args::parse();
    let served = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .and_then(|runtime| runtime.block_on(run(&args)));
    match served {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("Error: {err}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(args: &Args) -> std::io::Result<()> {
    // Logs go to stderr (stdout is the MCP channel), filtered by RUST_LOG:
    // by default errors (with the id a client got in its -32603) and
    // warnings (a prompt file that cannot be served, with its path and
    // line); `RUST_LOG=mcp_prompts=info` adds a line per request. With
    // OTEL_EXPORTER_OTLP_ENDPOINT set, traces and metrics go there too.
    let mut telemetry = mcp_prompts::otel::Otel::builder("mcp-prompts-showcase");
    if args.over_http.metrics {
        telemetry = telemetry.prometheus();
    }
    let otel = telemetry
        .init("warn")
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    let served = serve(args, otel.prometheus()).await;
    // What is still buffered is sent before the process ends.
    if let Err(err) = otel.shutdown() {
        eprintln!("mcp-prompts showcase: telemetry not all sent: {err}");
    }
    served
}

/// Serves as the command line says, until stdin ends (stdio), or Ctrl-C
/// or SIGTERM stops it.
async fn serve(args: &Args, metrics: Option<mcp_prompts::otel::Prometheus>) -> std::io::Result<()> {
    // Listened for from the start, so a signal sent once the server says
    // it is up always stops it gracefully.
    let stop = mcp_prompts::shutdown_signal();
    let catalog = match args.auth.issuer {
        Some(_) => caller_prompts::CATALOG_WITH_AUTH,
        None => prompts::CATALOG,
    };
    let mut server = Server::new("mcp-prompts-showcase", env!("CARGO_PKG_VERSION"))
        .catalog(catalog)
        .translations(prompts::translations())
        .title("mcp-prompts showcase")
        .icon(Icon::new("https://www.rust-lang.org/static/images/rust-logo-blk.svg").mime_type("image/svg+xml"))
        .instructions("Example prompts: code review, summaries, greetings, release notes, and the MCP conformance fixtures.");
    if args.prompts_as_tools {
        server = server.prompts_as_tools();
    }
    for dir in &args.skills_dirs {
        server = server.skills_dir(dir);
    }
    if args.skills_as_prompts {
        server = server.skills_as_prompts();
    }
    // Shared by replicas behind a load balancer; a short one stops the start.
    if let Some(secret) = std::env::var_os(REQUEST_STATE_SECRET) {
        server = server.request_state_secret(secret.as_encoded_bytes());
    }
    let invalid = |err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err);
    // With prompt files the catalog changes while serving, and clients are
    // told (`listChanged`); without, it is fixed.
    let (service, _dir) = match &args.prompts_dir {
        Some(dir) => {
            let (service, prompts) = server.build_live().map_err(invalid)?;
            (service, Some(PromptDir::watch(dir, &prompts)?))
        }
        None => (server.build().map_err(invalid)?, None),
    };
    let count = service.prompt_count();
    match args.http {
        Some(addr) => {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            let mut options = HttpOptions::for_addr(addr);
            if args.over_http.stateless {
                options = options.stateless();
            }
            if let Some(metrics) = metrics {
                options = options.metrics(metrics);
            }
            // The address bound, port included (`--http 127.0.0.1:0`).
            if let Some(auth) = args.auth.for_addr(listener.local_addr()?) {
                options = options.auth(auth);
            }
            if args.over_http.playground {
                let command = "cargo run --example showcase -- render";
                options = options.playground(Playground::new().render_command(command));
            }
            eprintln!(
                "mcp-prompts showcase: serving {count} prompts at http://{}/mcp{}; Ctrl-C stops.",
                listener.local_addr()?,
                if args.over_http.stateless {
                    " (stateless)"
                } else {
                    ""
                }
            );
            if args.over_http.playground {
                eprintln!(
                    "mcp-prompts showcase: try them at http://{}/playground",
                    listener.local_addr()?
                );
            }
            service.serve_http_on(listener, options, stop).await
        }
        None => {
            eprintln!(
                "mcp-prompts showcase: serving {count} prompts over stdio (newline-delimited JSON-RPC).\n\
                 Connect a client by letting it start this command, for example:\n  \
                 npx @modelcontextprotocol/inspector cargo run --example showcase\n\
                 Or serve over HTTP: cargo run --example showcase -- --http 127.0.0.1:8080"
            );
            service.serve_stdio_until(stop).await
        }
    }
}

/// Where `--http` without an address listens.
const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// The mcp-prompts showcase: every kind of prompt mcp-prompts supports.
///
/// Serves over stdio unless --http is given. `showcase check [DIR...]` checks
/// its prompts and any folders of prompt files; `showcase render NAME
/// [ARG=VALUE]...` prints what a prompt gives; `COMMAND --help` says more.
// The doc comments are the `--help` text, printed as written: backticks
// around `list_prompts` or a URL's `<>` would show.
#[allow(clippy::doc_markdown)]
#[derive(Debug, Parser)]
#[command(name = "showcase", version, after_help = ENVIRONMENT)]
struct Args {
    /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio; a PORT
    /// alone listens on 127.0.0.1.
    #[arg(
        long,
        value_name = "ADDR | PORT",
        num_args = 0..=1,
        default_missing_value = DEFAULT_ADDR,
        value_parser = mcp_prompts::cli::http_addr
    )]
    http: Option<SocketAddr>,
    #[command(flatten)]
    over_http: OverHttp,
    #[command(flatten)]
    auth: AuthArgs,
    /// Also serve DIR's prompt files, kept in step with it.
    #[arg(long, value_name = "DIR")]
    prompts_dir: Option<std::path::PathBuf>,
    /// Also serve the Agent Skills under DIR; give it again for more.
    #[arg(long = "skills-dir", value_name = "DIR")]
    skills_dirs: Vec<std::path::PathBuf>,
    /// Also offer each skill as a prompt.
    #[arg(long)]
    skills_as_prompts: bool,
    /// Also offer the prompts as the tools list_prompts and get_prompt.
    #[arg(long)]
    prompts_as_tools: bool,
}

/// The options that only HTTP has.
#[allow(clippy::doc_markdown)]
#[derive(Debug, clap::Args)]
struct OverHttp {
    /// With --http: no sessions (2026-07-28 and replicas).
    #[arg(long, requires = "http")]
    stateless: bool,
    /// With --http: a page at http://ADDR/playground to try every prompt in
    /// a browser.
    #[arg(long, requires = "http")]
    playground: bool,
    /// With --http: the metrics at http://ADDR/metrics for a Prometheus
    /// scrape.
    #[arg(long, requires = "http")]
    metrics: bool,
}

/// What `--help` says of the environment.
const ENVIRONMENT: &str = "\
Environment:
  MCP_PROMPTS_REQUEST_STATE_SECRET  the key (32 bytes at least) that signs
                     2026-07-28 question rounds; give replicas the same
  RUST_LOG           what is logged on stderr (default: warn)
  OTEL_EXPORTER_OTLP_ENDPOINT  export traces and metrics over OTLP/HTTP";

/// `--auth-issuer URL`, and the optional `--auth-audience URL` and
/// `--auth-jwks URL`.
#[allow(clippy::doc_markdown)]
#[derive(Debug, clap::Args)]
struct AuthArgs {
    /// With --http: verify every request's bearer token, a JWT this issuer
    /// signs for http://ADDR/mcp.
    #[arg(long = "auth-issuer", value_name = "URL", requires = "http")]
    issuer: Option<String>,
    /// The resource URL tokens must name, if another.
    #[arg(long = "auth-audience", value_name = "URL", requires = "issuer")]
    audience: Option<String>,
    /// The issuer's keys, if not found from its metadata.
    #[arg(long = "auth-jwks", value_name = "URL", requires = "issuer")]
    jwks: Option<String>,
}

impl AuthArgs {
    /// Token verification for a server listening on `addr`, if asked for:
    /// the resource (and so the audience tokens must name) is
    /// `http://ADDR/mcp` unless `--auth-audience` says otherwise.
    fn for_addr(&self, addr: SocketAddr) -> Option<HttpAuth> {
        let issuer = self.issuer.as_deref()?;
        let resource = self
            .audience
            .clone()
            .unwrap_or_else(|| format!("http://{addr}{}", mcp_prompts::DEFAULT_PATH));
        let mut verifier = JwtVerifier::new(issuer, &resource);
        if let Some(jwks) = &self.jwks {
            verifier = verifier.jwks_url(jwks);
        }
        let auth = HttpAuth::new(resource, verifier)
            .authorization_server(issuer)
            .resource_name("mcp-prompts showcase");
        Some(auth)
    }
}
