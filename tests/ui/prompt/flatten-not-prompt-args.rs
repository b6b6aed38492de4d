use mcp_prompts::prompt;

struct Target {
    repo: String,
}

/// Look at a repository
#[prompt]
fn look(#[arg(flatten)] target: Target) -> String {
    target.repo
}

fn main() {}
