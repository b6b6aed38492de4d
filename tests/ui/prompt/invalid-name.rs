use mcp_prompts::prompt;

#[prompt(name = "say hello")]
fn greet(name: String) -> String {
    name
}

fn main() {}
