//! `mcp-prompts serve DIR...`: folders of prompt files served over MCP, with
//! no Rust to write (feature `cli`); `mcp-prompts check DIR...` reads them
//! as `serve` does and prints what is wrong, for CI; `mcp-prompts render`
//! shows what a prompt gives; `mcp-prompts catalog`, `list` and `diff` lock
//! the catalog and say what changed. The commands are the library's
//! [`mcp_prompts::cli`], over a catalog of nothing but the folders.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use mcp_prompts::Server;

fn main() -> ExitCode {
    let server = Server::new("mcp-prompts", env!("CARGO_PKG_VERSION"))
        .prompts(std::iter::empty::<mcp_prompts::AnyPrompt>());
    mcp_prompts::cli::Cli::new(server).needs_folders().run()
}
