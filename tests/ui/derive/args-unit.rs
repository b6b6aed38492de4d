#[derive(mcp_prompts::PromptArgs)]
struct Target;

fn main() {}
