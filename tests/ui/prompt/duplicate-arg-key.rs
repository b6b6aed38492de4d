use mcp_prompts::prompt;

#[prompt]
fn greet(#[arg(default = "a", default = "b")] name: String) -> String {
    name
}

fn main() {}
