use mcp_prompts::prompt;

#[prompt]
fn greet(name: String) -> impl Into<String> {
    name
}

fn main() {}
