use mcp_prompts::{PromptArgs, prompt};

#[derive(PromptArgs)]
struct Target {
    repo: String,
}

/// A flattened struct's fields carry their own examples
#[prompt]
fn look(#[arg(flatten, example = "octo/repo")] target: Target) -> String {
    target.repo
}

fn main() {}
