use mcp_prompts::prompt;

#[prompt]
fn greet(name: String, #[arg(name = "name")] other: String) -> String {
    name + &other
}

fn main() {}
