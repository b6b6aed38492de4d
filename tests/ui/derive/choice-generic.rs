#[derive(mcp_prompts::PromptArg)]
enum Tone<T> {
    Formal,
    Casual(T),
}

fn main() {}
