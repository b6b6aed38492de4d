#[derive(mcp_prompts::PromptArg)]
#[prompt_arg(rename_all = "Title Case", rename = "x", display = "no")]
enum Tone {
    #[prompt_arg(rename = "formal", rename = "stiff", default)]
    Formal,
}

fn main() {}
