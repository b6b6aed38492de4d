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
    // Agent Skills in the folder, and in a repository's `.claude/skills`
    // (hidden, so the folder's own search passes it by).
    let claude_skills = serve.dir.join(".claude/skills");
    for root in [serve.dir.as_path(), claude_skills.as_path()] {
        if holds_skills(root, SKILL_DEPTH, &mut 10_000) {
            server = server.skills_dir(root);
        }
    }
    let (service, prompts) = server.build_live().map_err(invalid)?;
    let skills = match (service.skill_count(), service.skill_problems().len()) {
        (0, 0) => String::new(),
        (1, 0) => " and 1 skill".to_owned(),
        (skills, 0) => format!(" and {skills} skills"),
        (skills, broken) => format!(" and {skills} skills ({broken} not served: above)"),
    };
    // Each file that cannot be served, or is served with a warning, is
    // logged as it is read.
    let dir = PromptDir::watch(&serve.dir, &prompts)?;
    let mut count = match (dir.served().len(), dir.problems().len()) {
        (1, 0) => "1 prompt".to_owned(),
        (prompts, 0) => format!("{prompts} prompts"),
        (prompts, 1) => format!("{prompts} prompts (1 file not served: above)"),
        (prompts, broken) => format!("{prompts} prompts ({broken} files not served: above)"),
    };
    match dir.warnings().len() {
        0 => {}
        1 => count.push_str(" with 1 warning (above)"),
        warnings => count = format!("{count} with {warnings} warnings (above)"),
    }
    count.push_str(&skills);
    let Some(addr) = serve.http else {
        eprintln!(
            "mcp-prompts: serving {count} from {} over stdio",
            serve.dir.display()
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
        "mcp-prompts: serving {count} from {} at http://{bound}{}; Ctrl-C stops",
        serve.dir.display(),
        mcp_prompts::DEFAULT_PATH
    );
    service
        .serve_http_on(listener, options, mcp_prompts::shutdown_signal())
        .await
}

/// How many folders below a root skills are looked for, as the server
/// looks for them.
const SKILL_DEPTH: usize = 6;

/// Whether a folder holding a `SKILL.md` lies in `dir` (itself included),
/// down to `depth` folders, hidden folders and links left out as the
/// server leaves them, looking into at most `budget` folders: only then
/// does the server declare skills.
fn holds_skills(dir: &std::path::Path, depth: usize, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if dir.join("SKILL.md").is_file() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    depth > 0
        && entries.flatten().any(|entry| {
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            let folder = entry.file_type().is_ok_and(|t| t.is_dir());
            !hidden && folder && holds_skills(&entry.path(), depth - 1, budget)
        })
}
