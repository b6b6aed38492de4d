use mcp_prompts::{RequestContext, prompt};

/// The request context is not an argument, so it has no example
#[prompt]
fn greet(#[arg(example = "x")] ctx: RequestContext) -> String {
    let _ = ctx;
    String::new()
}

fn main() {}
