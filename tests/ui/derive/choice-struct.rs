#[derive(mcp_prompts::PromptArg)]
struct Tone {
    formal: bool,
}

fn main() {}
