/// Compose a greeting
#[mcp_prompts::prompt(template_file = "no/such/template.md")]
fn greet(name: String);

fn main() {}
