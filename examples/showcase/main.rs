//! The showcase: every kind of prompt mcp-prompts supports.
//!
//! - `cargo run --example showcase` serves it over stdio; let a client start
//!   it: `npx @modelcontextprotocol/inspector cargo run --example showcase`.
//! - `cargo run --example showcase -- --http 127.0.0.1:8080` serves it over
//!   Streamable HTTP at `http://127.0.0.1:8080/mcp`; add `--stateless` for
//!   the session-less mode replicas use, `--playground` for a page at
//!   `http://127.0.0.1:8080/playground` to try every prompt in a browser.
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
//!   (`cargo run --example showcase -- render greet name=Ann`).
//! - `MCP_PROMPTS_REQUEST_STATE_SECRET` (at least 32 bytes) is the key that
//!   signs 2026-07-28 question rounds: replicas given the same one answer
//!   each other's rounds.

mod caller_prompts;
mod prompts;

// How to use this server, as an Agent Skill that ships inside the binary.
mcp_prompts::include_skill!("examples/showcase/skills/showcase-guide");

use std::net::SocketAddr;

use mcp_prompts::{HttpAuth, HttpOptions, Icon, JwtVerifier, Playground, PromptDir, Server};

/// The environment variable holding the key that signs question rounds.
const REQUEST_STATE_SECRET: &str = "MCP_PROMPTS_REQUEST_STATE_SECRET";

/// What `--help` prints: every option `Args::parse` reads.
const USAGE: &str = "\
The mcp-prompts showcase: every kind of prompt mcp-prompts supports.

Usage: showcase [OPTIONS]
       showcase check [DIR...] [--deny-warnings] [--format text|json|github]
       showcase render NAME [ARG=VALUE]... [--answer FIELD=VALUE]... [--format text|json]

Serves over stdio unless --http is given; `check --help` and `render --help`
say more of those two.

Options:
  --http [ADDR | PORT]     serve Streamable HTTP at http://ADDR/mcp (default
                           127.0.0.1:8080) instead of stdio
  --stateless              with --http: no sessions (2026-07-28 and replicas)
  --playground             with --http: a page at http://ADDR/playground to try
                           every prompt in a browser
  --auth-issuer URL        with --http: verify every request's bearer token, a
                           JWT this issuer signs for http://ADDR/mcp
  --auth-audience URL      the resource URL tokens must name, if another
  --auth-jwks URL          the issuer's keys, if not found from its metadata
  --prompts-dir DIR        also serve DIR's prompt files, kept in step with it
  --skills-dir DIR         also serve the Agent Skills under DIR (repeatable)
  --skills-as-prompts      also offer each skill as a prompt
  --prompts-as-tools       also offer the prompts as the tools list_prompts and
                           get_prompt
  -h, --help               print this help

Environment:
  MCP_PROMPTS_REQUEST_STATE_SECRET  the key (32 bytes at least) that signs
                           2026-07-28 question rounds; give replicas the same
  RUST_LOG                 what is logged on stderr (default: warn)
  OTEL_EXPORTER_OTLP_ENDPOINT  export traces and metrics over OTLP/HTTP";

fn main() -> std::process::ExitCode {
    // `check [DIR...]` and `render NAME [ARG=VALUE]...` over the showcase's
    // own prompts (and any folders named): the library's command line.
    if matches!(std::env::args().nth(1).as_deref(), Some("check" | "render")) {
        let server = Server::new("mcp-prompts-showcase", env!("CARGO_PKG_VERSION"))
            .catalog(prompts::CATALOG);
        return mcp_prompts::cli::run(server);
    }
    let args = match Args::parse() {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return std::process::ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("Error: {err}");
            return std::process::ExitCode::FAILURE;
        }
    };
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
    let otel = mcp_prompts::otel::init("mcp-prompts-showcase", "warn")
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    let served = serve(args).await;
    // What is still buffered is sent before the process ends.
    if let Err(err) = otel.shutdown() {
        eprintln!("mcp-prompts showcase: telemetry not all sent: {err}");
    }
    served
}

/// Serves as the command line says, until stdin ends (stdio), or Ctrl-C
/// or SIGTERM stops it.
async fn serve(args: &Args) -> std::io::Result<()> {
    // Listened for from the start, so a signal sent once the server says
    // it is up always stops it gracefully.
    let stop = mcp_prompts::shutdown_signal();
    let catalog = match args.auth {
        Some(_) => caller_prompts::CATALOG_WITH_AUTH,
        None => prompts::CATALOG,
    };
    let mut server = Server::new("mcp-prompts-showcase", env!("CARGO_PKG_VERSION"))
        .catalog(catalog)
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
            if let Some(auth) = &args.auth {
                // The address bound, port included (`--http 127.0.0.1:0`).
                options = options.auth(auth.for_addr(listener.local_addr()?));
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

/// The options `USAGE` lists; anything else is an error.
struct Args {
    http: Option<SocketAddr>,
    /// `--stateless` and `--playground`.
    over_http: OverHttp,
    prompts_as_tools: bool,
    prompts_dir: Option<std::path::PathBuf>,
    /// `--skills-dir DIR`, once per folder.
    skills_dirs: Vec<std::path::PathBuf>,
    skills_as_prompts: bool,
    auth: Option<AuthArgs>,
}

/// The options that only HTTP has.
#[derive(Default)]
struct OverHttp {
    /// `--stateless`: no sessions.
    stateless: bool,
    /// `--playground`: the page at `/playground` beside `/mcp`.
    playground: bool,
}

/// `--auth-issuer URL`, and the optional `--auth-audience URL` and
/// `--auth-jwks URL`.
#[derive(Default)]
struct AuthArgs {
    issuer: String,
    audience: Option<String>,
    jwks: Option<String>,
}

impl AuthArgs {
    /// Token verification for a server listening on `addr`: the resource
    /// (and so the audience tokens must name) is `http://ADDR/mcp` unless
    /// `--auth-audience` says otherwise.
    fn for_addr(&self, addr: SocketAddr) -> HttpAuth {
        let resource = self
            .audience
            .clone()
            .unwrap_or_else(|| format!("http://{addr}{}", mcp_prompts::DEFAULT_PATH));
        let mut verifier = JwtVerifier::new(&self.issuer, &resource);
        if let Some(jwks) = &self.jwks {
            verifier = verifier.jwks_url(jwks);
        }
        HttpAuth::new(resource, verifier)
            .authorization_server(&self.issuer)
            .resource_name("mcp-prompts showcase")
    }
}

impl Args {
    /// The process's options; `None` for `--help`.
    fn parse() -> std::io::Result<Option<Self>> {
        let invalid =
            |message: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, message);
        let mut args = Self {
            http: None,
            over_http: OverHttp::default(),
            prompts_as_tools: false,
            prompts_dir: None,
            skills_dirs: Vec::new(),
            skills_as_prompts: false,
            auth: None,
        };
        let mut issuer = None;
        let (mut audience, mut jwks) = (None, None);
        let mut words = std::env::args().skip(1);
        let mut pending: Option<String> = None;
        while let Some(word) = pending.take().or_else(|| words.next()) {
            match word.as_str() {
                "-h" | "--help" => return Ok(None),
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
                "--stateless" => args.over_http.stateless = true,
                "--playground" => args.over_http.playground = true,
                "--prompts-as-tools" => args.prompts_as_tools = true,
                "--skills-as-prompts" => args.skills_as_prompts = true,
                "--auth-issuer" | "--auth-audience" | "--auth-jwks" => {
                    let url = words
                        .next()
                        .ok_or_else(|| invalid(format!("{word} needs a URL")))?;
                    *match word.as_str() {
                        "--auth-issuer" => &mut issuer,
                        "--auth-audience" => &mut audience,
                        _ => &mut jwks,
                    } = Some(url);
                }
                "--skills-dir" => {
                    let dir = words
                        .next()
                        .ok_or_else(|| invalid("--skills-dir needs a directory".into()))?;
                    args.skills_dirs.push(dir.into());
                }
                "--prompts-dir" => {
                    let dir = words
                        .next()
                        .ok_or_else(|| invalid("--prompts-dir needs a directory".into()))?;
                    args.prompts_dir = Some(dir.into());
                }
                other => {
                    return Err(invalid(format!(
                        "unknown option `{other}`; --help lists them"
                    )));
                }
            }
        }
        if args.over_http.playground && args.http.is_none() {
            return Err(invalid(
                "--playground is a page beside the HTTP endpoint: add --http".into(),
            ));
        }
        match issuer {
            Some(_) if args.http.is_none() => {
                return Err(invalid(
                    "--auth-issuer verifies HTTP requests' tokens: add --http".into(),
                ));
            }
            Some(issuer) => {
                args.auth = Some(AuthArgs {
                    issuer,
                    audience,
                    jwks,
                });
            }
            None if audience.is_some() || jwks.is_some() => {
                return Err(invalid(
                    "--auth-audience and --auth-jwks need --auth-issuer".into(),
                ));
            }
            None => {}
        }
        Ok(Some(args))
    }
}
