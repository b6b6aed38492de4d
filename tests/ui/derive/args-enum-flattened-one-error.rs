use mcp_prompts::{PromptArgs, prompt};

#[derive(PromptArgs)]
enum Target {
    Repo,
}

/// Look at a repository
#[prompt]
fn look(#[arg(flatten)] target: Target) -> String {
    let _ = target;
    String::new()
}

fn main() {}
