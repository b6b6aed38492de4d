use mcp_prompts::PromptArgs;

#[derive(PromptArgs)]
struct Window {
    /// How many days
    #[arg(default = 400)]
    days: u8,
}

fn main() {}
