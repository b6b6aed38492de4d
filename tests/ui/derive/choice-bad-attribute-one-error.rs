use mcp_prompts::{PromptArg, prompt};

#[derive(PromptArg)]
enum Tone {
    #[prompt_arg(renamed = "posh")]
    Formal,
    Casual,
}

/// Used as an argument: the one mistake above is the only error
#[prompt]
fn greet(tone: Tone, other: Option<Tone>) -> String {
    let _ = (tone, other);
    String::new()
}

fn main() {}
