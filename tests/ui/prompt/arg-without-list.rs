use mcp_prompts::prompt;

#[prompt]
fn greet(#[arg] name: String) -> String {
    name
}

fn main() {}
