//! The smallest server: one prompt, on stdio. Run it from an MCP client,
//! as `cargo run --example hello`.

use mcp_prompts::{Server, prompt};

/// Greet someone
#[prompt]
fn hello(
    /// Who to greet
    name: String,
) -> String {
    format!("Say hello to {name}, warmly and in one sentence.")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    Server::new("hello", "1.0").serve_stdio().await
}
