use mcp_prompts::prompt;

#[prompt]
unsafe fn greet(name: String) -> String {
    name
}

fn main() {}
