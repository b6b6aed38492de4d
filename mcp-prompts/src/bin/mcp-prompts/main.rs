//! `mcp-prompts serve DIR...`: folders of prompt files served over MCP, with
//! no Rust to write (feature `cli`). Over stdio by default, or Streamable
//! HTTP with `--http`; the folders are watched, and a file that cannot be
//! served is reported with its path and line. `mcp-prompts check DIR...`
//! reads them the same way and prints what is wrong, for CI.

#![forbid(unsafe_code)]

mod args;
mod check;
mod folders;
mod render;

use std::io::{Error, ErrorKind};

use args::{Command, Serve};
use folders::Folders;
use mcp_prompts::{HttpAuth, HttpOptions, JwtVerifier, PromptDir, Server};

/// The environment variable holding the key that signs question rounds.
const REQUEST_STATE_SECRET: &str = "MCP_PROMPTS_REQUEST_STATE_SECRET";

fn main() {
    let words: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(std::ffi::OsString::into_string)
        .collect();
    let parsed = words
        .map_err(|word| format!("`{}` is not UTF-8 text", word.to_string_lossy()))
        .and_then(Command::parse);
    let serve = match parsed {
        Ok(Command::Serve(serve)) => serve,
        Ok(Command::Render(render)) => {
            let rendered = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .and_then(|runtime| runtime.block_on(render::run(&render)));
            match rendered {
                Ok(code) => std::process::exit(code),
                Err(error) => {
                    eprintln!("mcp-prompts: {error}");
                    std::process::exit(2);
                }
            }
        }
        Ok(Command::Check(check)) => {
            // What is wrong is printed by the check itself, not logged.
            let checked = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .and_then(|runtime| {
                    // The folders' watches start on the runtime's threads.
                    let _entered = runtime.enter();
                    check::run(&check)
                });
            match checked {
                Ok(code) => std::process::exit(code),
                Err(error) => {
                    eprintln!("mcp-prompts: {error}");
                    std::process::exit(2);
                }
            }
        }
        Ok(Command::Help) => {
            println!("{}", args::USAGE);
            return;
        }
        Ok(Command::Version) => {
            println!("mcp-prompts {}", env!("CARGO_PKG_VERSION"));
            return;
        }
        Err(problem) => {
            eprintln!("mcp-prompts: {problem}\n\n{}", args::USAGE);
            std::process::exit(2);
        }
    };
    // Logs go to stderr (stdout may be the MCP channel); a file that cannot
    // be served is a warning, with its path and line. With
    // OTEL_EXPORTER_OTLP_ENDPOINT set, traces and metrics go there too.
    let otel = match mcp_prompts::otel::init("mcp-prompts", "warn") {
        Ok(otel) => otel,
        Err(error) => {
            eprintln!("mcp-prompts: {error}");
            std::process::exit(2);
        }
    };
    let served = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .and_then(|runtime| runtime.block_on(run(serve)));
    // What is still buffered is sent before the process ends.
    if let Err(error) = otel.shutdown() {
        eprintln!("mcp-prompts: telemetry not all sent: {error}");
    }
    if let Err(error) = served {
        eprintln!("mcp-prompts: {error}");
        std::process::exit(1);
    }
}

async fn run(serve: Serve) -> std::io::Result<()> {
    let invalid = |err: mcp_prompts::CatalogError| Error::new(ErrorKind::InvalidInput, err);
    let mut server = Server::new("mcp-prompts", env!("CARGO_PKG_VERSION"))
        .prompts(std::iter::empty::<mcp_prompts::AnyPrompt>());
    if serve.prompts_as_tools {
        server = server.prompts_as_tools();
    }
    if serve.skills_as_prompts {
        server = server.skills_as_prompts();
    }
    if let Some(limit) = serve.max_result_bytes {
        server = server.max_result_bytes(limit);
    }
    if let Some(secret) = std::env::var_os(REQUEST_STATE_SECRET) {
        server = server.request_state_secret(secret.as_encoded_bytes());
    }
    // Agent Skills in the folders, and in a repository's `.claude/skills`
    // (hidden, so the folder's own search passes it by).
    let folders = Folders::of(&serve.dirs);
    for root in &folders.skills {
        server = server.skills_dir(root);
    }
    let (service, prompts) = server.build_live().map_err(invalid)?;
    let skills = match (service.skill_count(), service.skill_problems().len()) {
        (0, 0) => String::new(),
        (1, 0) => " and 1 skill".to_owned(),
        (skills, 0) => format!(" and {skills} skills"),
        (skills, broken) => format!(" and {skills} skills ({broken} not served: above)"),
    };
    // Each file that cannot be served, or is served with a warning, is
    // logged as it is read. One catalog: a name a folder read earlier
    // serves is a problem of the later one.
    let dirs = folders
        .prompts
        .iter()
        .map(|dir| PromptDir::watch(dir, &prompts))
        .collect::<std::io::Result<Vec<_>>>()?;
    let from_files: usize = dirs.iter().map(|dir| dir.served().len()).sum();
    let broken: usize = dirs.iter().map(|dir| dir.problems().len()).sum();
    let warned: usize = dirs.iter().map(|dir| dir.warnings().len()).sum();
    let mut count = match (from_files, broken) {
        (1, 0) => "1 prompt".to_owned(),
        (prompts, 0) => format!("{prompts} prompts"),
        (prompts, 1) => format!("{prompts} prompts (1 file not served: above)"),
        (prompts, broken) => format!("{prompts} prompts ({broken} files not served: above)"),
    };
    match warned {
        0 => {}
        1 => count.push_str(" with 1 warning (above)"),
        warnings => count = format!("{count} with {warnings} warnings (above)"),
    }
    count.push_str(&skills);
    let Some(addr) = serve.http else {
        eprintln!(
            "mcp-prompts: serving {count} over stdio ({})",
            folders.describe()
        );
        return service
            .serve_stdio_until(mcp_prompts::shutdown_signal())
            .await;
    };
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let mut options = HttpOptions::for_addr(bound);
    if serve.stateless {
        options = options.stateless();
    }
    if let Some(auth) = &serve.auth {
        // Tokens name the URL clients use, which an address like 0.0.0.0
        // is not.
        let resource = match (&auth.audience, bound.ip().is_unspecified()) {
            (Some(audience), _) => audience.clone(),
            (None, false) => format!("http://{bound}{}", mcp_prompts::DEFAULT_PATH),
            (None, true) => {
                return Err(Error::new(
                    ErrorKind::InvalidInput,
                    format!("--http {bound} is no URL a token names: add --auth-audience URL"),
                ));
            }
        };
        let mut verifier = JwtVerifier::new(&auth.issuer, &resource);
        if let Some(jwks) = &auth.jwks {
            verifier = verifier.jwks_url(jwks);
        }
        let auth = HttpAuth::new(resource, verifier).authorization_server(&auth.issuer);
        options = options.auth(auth);
    }
    eprintln!(
        "mcp-prompts: serving {count} at http://{bound}{} ({}); Ctrl-C stops",
        mcp_prompts::DEFAULT_PATH,
        folders.describe()
    );
    service
        .serve_http_on(listener, options, mcp_prompts::shutdown_signal())
        .await
}
