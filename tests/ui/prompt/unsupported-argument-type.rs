use mcp_prompts::prompt;

struct Color;

#[prompt]
fn paint(color: Color) -> String {
    let _ = color;
    String::new()
}

fn main() {}
