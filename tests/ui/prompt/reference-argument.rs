use mcp_prompts::prompt;

/// Arguments are owned
#[prompt]
fn greet(name: &str, tags: &Vec<String>) -> String {
    format!("{name} {tags:?}")
}

fn main() {}
