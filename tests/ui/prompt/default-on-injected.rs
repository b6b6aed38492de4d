use mcp_prompts::{RequestContext, prompt};

/// The request context is not an argument
#[prompt]
fn greet(#[arg(default = "x")] ctx: RequestContext) -> String {
    let _ = ctx;
    String::new()
}

fn main() {}
