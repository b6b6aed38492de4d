/// Compose a greeting
#[mcp_prompts::prompt(template = "Compose a greeting for {nmae}.")]
fn greet(name: String);

fn main() {}
