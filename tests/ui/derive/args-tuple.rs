#[derive(mcp_prompts::PromptArgs)]
struct Target(String, String);

fn main() {}
