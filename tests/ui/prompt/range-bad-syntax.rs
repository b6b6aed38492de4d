use mcp_prompts::prompt;

/// Each range here is written wrong
#[prompt]
fn plan(
    #[arg(range = "1..=3")] a: u8,
    #[arg(range = 1..3)] b: u8,
    #[arg(range = 5..=1)] c: u8,
    #[arg(range = ..)] d: u8,
    #[arg(range = LOW..=9)] e: u8,
) -> String {
    format!("{a} {b} {c} {d} {e}")
}

const LOW: u8 = 1;

fn main() {}
