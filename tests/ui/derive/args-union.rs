#[derive(mcp_prompts::PromptArgs)]
union Target {
    repo: u32,
}

fn main() {}
