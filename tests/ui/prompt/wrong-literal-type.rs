use mcp_prompts::prompt;

#[prompt(name = 5)]
fn greet(name: String) -> String {
    name
}

fn main() {}
