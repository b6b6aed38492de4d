use mcp_prompts::{PromptArgs, prompt};

#[derive(PromptArgs)]
struct Window {
    hours: u8,
}

/// A flattened struct's fields carry their own ranges
#[prompt]
fn plan(#[arg(flatten, range = 1..=8)] window: Window) -> String {
    window.hours.to_string()
}

fn main() {}
