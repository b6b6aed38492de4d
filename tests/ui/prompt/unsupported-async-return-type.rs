use mcp_prompts::prompt;

#[prompt]
async fn count(text: String) -> Option<String> {
    Some(text)
}

fn main() {}
