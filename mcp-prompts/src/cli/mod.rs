//! The command line of a prompt server: `serve`, `check`, `render`,
//! `catalog`, `list` and `diff` over a [`Server`]'s catalog and the folders of prompt files named on the
//! command line (feature `cli`). The `mcp-prompts` binary is this over an
//! empty catalog; a binary of your own gets the same commands over its
//! Rust prompts with one call.
//!
//! ```no_run
//! use mcp_prompts::{Server, prompt};
//!
//! /// Greet someone
//! #[prompt]
//! fn hello(name: String) -> String {
//!     format!("Say hello to {name}.")
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     // `my-prompts serve`, `my-prompts check prompts/`, `my-prompts render hello name=Ann`
//!     mcp_prompts::cli::run(Server::new("my-prompts", "1.0"))
//! }
//! ```

mod args;
mod check;
mod contract;
mod escape;
mod folders;
#[cfg(feature = "registry")]
mod registry;
mod render;
mod serve;

use std::process::ExitCode;

use args::Command;

use crate::server::Server;

/// Runs the command the process's arguments name over `server`'s catalog
/// (and the folders they name): `serve [DIR...]`, `check [DIR...]`,
/// `render [--dir DIR]... NAME [ARG=VALUE]...`, `catalog [DIR...]`,
/// `list [DIR...]`, `diff OLD NEW`, `completions SHELL`; `--help` says
/// more, and `COMMAND --help` what each takes. What the exit code says: 0
/// done, 1 a check or a render failed or a catalog changed in a way that
/// breaks (`diff`, `check --against`), 2 the command line, a folder or a
/// catalog file could not be used.
pub fn run(server: Server) -> ExitCode {
    Cli::new(server).run()
}

/// The value of an `--http` option as the `mcp-prompts` binary reads it:
/// `ADDR:PORT`, or a port alone on `127.0.0.1`. A clap value parser for a
/// binary of your own.
///
/// ```
/// use std::net::SocketAddr;
///
/// let addr: SocketAddr = mcp_prompts::cli::http_addr("8080").unwrap();
/// assert_eq!(addr, SocketAddr::from(([127, 0, 0, 1], 8080)));
/// assert!(mcp_prompts::cli::http_addr("0.0.0.0:9000").is_ok());
/// assert!(mcp_prompts::cli::http_addr("prompts").is_err());
/// ```
pub fn http_addr(value: &str) -> Result<std::net::SocketAddr, String> {
    if let Ok(port) = value.parse::<u16>() {
        return Ok(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    }
    value
        .parse()
        .map_err(|err| format!("{err}: give ADDR:PORT or a PORT"))
}

/// The command line over a [`Server`], configured: [`run`] is
/// `Cli::new(server).run()`.
#[derive(Debug)]
pub struct Cli {
    server: Server,
    needs_folders: bool,
}

impl Cli {
    /// The commands over `server`'s catalog.
    pub fn new(server: Server) -> Self {
        Self {
            server,
            needs_folders: false,
        }
    }

    /// Every command must name a folder (the catalog has nothing of its
    /// own), and `render` reads `.` when it names none: as `mcp-prompts`.
    #[must_use]
    pub fn needs_folders(mut self) -> Self {
        self.needs_folders = true;
        self
    }

    /// Runs the command the process's arguments name.
    pub fn run(self) -> ExitCode {
        let mut words = std::env::args_os();
        let program = words
            .next()
            .and_then(|path| {
                let path = std::path::PathBuf::from(path);
                Some(path.file_stem()?.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "mcp-prompts".to_owned());
        let words: Result<Vec<String>, _> = words.map(std::ffi::OsString::into_string).collect();
        let words = match words {
            Ok(words) => words,
            Err(word) => {
                eprintln!("{program}: `{}` is not UTF-8 text", word.to_string_lossy());
                return ExitCode::from(2);
            }
        };
        let version = self.server.version().to_owned();
        let command = match args::parse(&program, &version, words, self.needs_folders) {
            Ok(Some(command)) => command,
            // No command: what there is to run.
            Ok(None) => {
                let mut line = args::command_line(&program, &version, self.needs_folders);
                println!("{}", line.render_long_help());
                return ExitCode::SUCCESS;
            }
            // `--help` and `--version` too, which exit 0; a mistake 2.
            Err(error) => {
                let _ = error.print();
                return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
            }
        };
        if let Command::Completions { shell } = command {
            let mut line = args::command_line(&program, &version, self.needs_folders);
            clap_complete::generate(shell, &mut line, &program, &mut std::io::stdout());
            return ExitCode::SUCCESS;
        }
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(error) => {
                eprintln!("{program}: {error}");
                return ExitCode::from(2);
            }
        };
        // The folders' watches start on the runtime's threads.
        let _entered = runtime.enter();
        let done = match command {
            Command::Check(check) => check::run(self.server, &check),
            Command::Catalog(listed) => contract::catalog(self.server, &listed),
            Command::List(listed) => contract::list(self.server, &listed),
            Command::Diff(diff) => contract::diff(&self.server, &diff),
            Command::Render(render) => runtime.block_on(render::run(self.server, &render)),
            #[cfg(feature = "registry")]
            Command::Publish(publish) => runtime.block_on(registry::publish(self.server, &publish)),
            #[cfg(feature = "registry")]
            Command::Label(label) => runtime.block_on(registry::label(&label)),
            #[cfg(feature = "registry")]
            Command::Versions(versions) => runtime.block_on(registry::versions(&versions)),
            Command::Serve(serve) => {
                let code = serve_logged(&runtime, self.server, serve, &program);
                // A readiness check stuck on a folder (a network mount gone
                // quiet) does not hold the exit up.
                runtime.shutdown_timeout(std::time::Duration::from_secs(1));
                return code;
            }
            Command::Completions { .. } => Ok(0),
        };
        match done {
            Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            Err(error) => {
                // It may name a folder or a file, or quote a prompt.
                eprintln!("{program}: {}", escape::line(&error.to_string()));
                ExitCode::from(2)
            }
        }
    }
}

/// `serve`, with logs on stderr (stdout may be the MCP channel) and, with
/// `OTEL_EXPORTER_OTLP_ENDPOINT` set, traces and metrics exported; what is
/// buffered is sent before the process ends.
fn serve_logged(
    runtime: &tokio::runtime::Runtime,
    server: Server,
    serve: args::Serve,
    program: &str,
) -> ExitCode {
    let mut telemetry = crate::telemetry::otel::setup::Otel::builder(program);
    if serve.over_http.metrics {
        telemetry = telemetry.prometheus();
    }
    let otel = match telemetry.init("warn") {
        Ok(otel) => otel,
        Err(error) => {
            eprintln!("{program}: {error}");
            return ExitCode::from(2);
        }
    };
    let outcome = runtime.block_on(serve::run(server, serve, program, otel.prometheus()));
    if let Err(error) = otel.shutdown() {
        eprintln!("{program}: telemetry not all sent: {error}");
    }
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{program}: {}", escape::line(&error.to_string()));
            ExitCode::from(1)
        }
    }
}
