use mcp_prompts::prompt;

#[prompt]
struct NotAFunction;

fn main() {}
