/// Compose a greeting
#[mcp_prompts::prompt(template = "Hello {name}.")]
fn greet(name: String) {
    let _ = name;
}

fn main() {}
