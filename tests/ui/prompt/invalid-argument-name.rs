use mcp_prompts::prompt;

#[prompt]
fn greet(#[arg(name = "the name")] name: String) -> String {
    name
}

fn main() {}
