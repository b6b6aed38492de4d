use mcp_prompts::{PromptArgs, prompt};

#[derive(PromptArgs)]
struct Target {
    repo: String,
}

/// Look at a repository
#[prompt]
fn look(#[arg(flatten, name = "target", default = "x")] target: Target) -> String {
    target.repo
}

fn main() {}
