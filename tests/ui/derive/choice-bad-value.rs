#[derive(mcp_prompts::PromptArg)]
enum Tone {
    #[prompt_arg(rename = "")]
    Formal,
    #[prompt_arg(alias = " casual")]
    Casual,
}

fn main() {}
