#[derive(mcp_prompts::PromptArgs)]
struct Target<T> {
    repo: T,
}

fn main() {}
