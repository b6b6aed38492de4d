#[derive(mcp_prompts::PromptArgs)]
enum Target {
    Repo(String),
}

fn main() {}
