use mcp_prompts::prompt;

#[prompt]
fn greet(#[arg(nmae = "who")] name: String) -> String {
    name
}

fn main() {}
