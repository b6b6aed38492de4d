/// Summarize a text
#[mcp_prompts::prompt]
fn summarize(text: String, #[cfg(unix)] detail: String) -> String {
    format!("{text} {detail}")
}

fn main() {}
