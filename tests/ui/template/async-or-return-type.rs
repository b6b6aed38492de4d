/// Compose a greeting
#[mcp_prompts::prompt(template = "Hello {name}.")]
async fn greet(name: String) -> String;

fn main() {}
