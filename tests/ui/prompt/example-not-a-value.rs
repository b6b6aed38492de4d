use mcp_prompts::{PromptArg, prompt};

#[derive(PromptArg)]
enum Tone {
    Formal,
    Casual,
}

/// Examples are checked as defaults are: these are wrong, the last two right
#[prompt]
fn greet(
    #[arg(example = 70000)] port: u16,
    #[arg(example = "soon")] when: Option<i64>,
    #[arg(example = "loud")] tone: Tone,
    #[arg(example = "maybe")] strict: bool,
    #[arg(example = "src/main.rs")] path: String,
    #[arg(example = 3)] depth: Option<u8>,
) -> String {
    let _ = (port, when, tone, strict, path, depth);
    String::new()
}

fn main() {}
