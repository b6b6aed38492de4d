use mcp_prompts::prompt;

#[prompt]
fn greet(name: impl ToString) -> String {
    name.to_string()
}

fn main() {}
