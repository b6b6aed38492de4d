use mcp_prompts::prompt;

#[prompt(titel = "Greeting")]
fn greet(name: String) -> String {
    name
}

fn main() {}
