const PROMPTS: mcp_prompts::Catalog = mcp_prompts::catalog![1 + 2];

fn main() {
    let _ = PROMPTS;
}
