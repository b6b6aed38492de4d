use mcp_prompts::{PromptArgs, prompt};

#[derive(PromptArgs)]
struct Target {
    /// Repository
    repo: String,
    /// Branch
    branch: String,
}

/// Compare two branches
#[prompt]
fn compare(#[arg(flatten)] target: Target, branch: String) -> String {
    format!("{} {} {branch}", target.repo, target.branch)
}

fn main() {}
