#[derive(mcp_prompts::PromptArg)]
enum Tone {
    Formal,
    Custom(String),
    Other { text: String },
}

fn main() {}
