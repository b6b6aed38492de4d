use mcp_prompts::prompt;

/// A list is JSON, or a type of your own
#[prompt]
fn tag(tags: Vec<String>) -> String {
    tags.join(", ")
}

fn main() {}
