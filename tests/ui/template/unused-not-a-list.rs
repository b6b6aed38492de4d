/// Compose a greeting
#[mcp_prompts::prompt(template = "Hello {name}.", unused = "tone")]
fn greet(name: String, tone: String);

fn main() {}
