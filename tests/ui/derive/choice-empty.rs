#[derive(mcp_prompts::PromptArg)]
enum Tone {}

fn main() {}
