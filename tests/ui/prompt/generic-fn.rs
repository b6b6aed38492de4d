use mcp_prompts::prompt;

#[prompt]
fn greet<T: ToString>(name: String) -> String {
    name
}

fn main() {}
