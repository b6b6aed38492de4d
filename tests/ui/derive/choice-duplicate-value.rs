#[derive(mcp_prompts::PromptArg)]
enum Tone {
    Formal,
    #[prompt_arg(alias = "FORMAL")]
    Stiff,
    #[prompt_arg(rename = "casual", alias = "relaxed", alias = "Relaxed")]
    Casual,
}

fn main() {}
