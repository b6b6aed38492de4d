use mcp_prompts::PromptArgs;

#[derive(PromptArgs)]
struct Repo {
    name: String,
}

#[derive(PromptArgs)]
struct Target {
    #[arg(flatten)]
    repo: Repo,
    name: String,
}

fn main() {}
