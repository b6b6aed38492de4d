use mcp_prompts::prompt;

#[prompt]
fn greet((first, last): (String, String)) -> String {
    format!("{first} {last}")
}

fn main() {}
