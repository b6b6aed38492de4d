use mcp_prompts::prompt;

#[prompt]
fn count(text: String) -> usize {
    text.len()
}

fn main() {}
