use mcp_prompts::prompt;

#[prompt]
fn greet(name: String) -> String
where
    String: Clone,
{
    name
}

fn main() {}
