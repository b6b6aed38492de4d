#[derive(mcp_prompts::PromptArg)]
union Tone {
    formal: u8,
}

fn main() {}
