use mcp_prompts::{PromptArg, prompt};

#[derive(PromptArg)]
enum Tone {
    Formal,
    #[prompt_arg(alias = "relaxed")]
    Casual,
}

/// Every default the compiler can check, wrong; and two that are right
#[prompt]
fn greet(
    #[arg(default = 70000)] port: u16,
    #[arg(default = -1)] count: u16,
    #[arg(default = 1.5)] whole: i32,
    #[arg(default = "many")] ratio: Option<f64>,
    #[arg(default = "yes")] strict: bool,
    #[arg(default = "ab")] letter: char,
    #[arg(default = "conventinal")] tone: Tone,
    #[arg(default = "Relaxed")] alias: Tone,
    #[arg(default = -128)] lowest: i8,
) -> String {
    let _ = (port, count, whole, ratio, strict, letter, tone, alias, lowest);
    String::new()
}

fn main() {}
