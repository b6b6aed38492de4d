use mcp_prompts::prompt;

#[prompt(title = "Greeting", title = "Hello")]
fn greet(name: String) -> String {
    name
}

fn main() {}
