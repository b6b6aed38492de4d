/// Compose a greeting
#[mcp_prompts::prompt(template = "Hello {name}.", template_file = "greeting.md")]
fn greet(name: String);

fn main() {}
