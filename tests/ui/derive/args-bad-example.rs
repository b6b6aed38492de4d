use mcp_prompts::PromptArgs;

#[derive(PromptArgs)]
struct Window {
    /// How many days
    #[arg(example = "a week")]
    days: u8,
}

fn main() {}
