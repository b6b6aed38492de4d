use mcp_prompts::prompt;

#[prompt]
fn greet(#[arg(description = true)] name: String) -> String {
    name
}

fn main() {}
