use mcp_prompts::{PromptArgs, prompt};

#[derive(PromptArgs)]
struct Target {
    #[arg(nmae = "repository")]
    repo: String,
}

/// Look at a repository
#[prompt]
fn look(#[arg(flatten)] target: Target) -> String {
    target.repo
}

fn main() {}
