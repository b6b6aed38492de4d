//! The showcase: every kind of prompt mcp-prompts supports, served over stdio.
//!
//! Run it with `cargo run --example showcase`, or let a client start it:
//! `npx @modelcontextprotocol/inspector cargo run --example showcase`.

mod prompts;

use mcp_prompts::Server;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let service = Server::new("mcp-prompts-showcase", env!("CARGO_PKG_VERSION"))
        .catalog(prompts::CATALOG)
        .title("mcp-prompts showcase")
        .instructions("Example prompts: code review, summaries, greetings, release notes, and the MCP conformance fixtures.")
        .build()
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    eprintln!(
        "mcp-prompts showcase: serving {} prompts over stdio (newline-delimited JSON-RPC).\n\
         Connect a client by letting it start this command, for example:\n  \
         npx @modelcontextprotocol/inspector cargo run --example showcase",
        service.prompt_count()
    );
    service
        .serve_io(tokio::io::stdin(), tokio::io::stdout())
        .await
}
