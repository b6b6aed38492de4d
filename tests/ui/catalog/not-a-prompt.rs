/// A prompt
#[mcp_prompts::prompt]
fn hello() -> String {
    "Hello".into()
}

fn not_a_prompt() -> String {
    String::new()
}

const PROMPTS: mcp_prompts::Catalog = mcp_prompts::catalog![hello, not_a_prompt];

fn main() {
    let _ = PROMPTS;
}
