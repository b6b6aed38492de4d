use mcp_prompts::prompt;

struct Prompts;

impl Prompts {
    #[prompt]
    fn greet(&self) -> String {
        String::new()
    }
}

fn main() {}
