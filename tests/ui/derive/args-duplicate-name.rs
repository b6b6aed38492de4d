#[derive(mcp_prompts::PromptArgs)]
struct Target {
    repo: String,
    #[arg(name = "repo")]
    repository: String,
}

fn main() {}
