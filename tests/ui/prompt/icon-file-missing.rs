use mcp_prompts::prompt;

// An icon file is read when the crate compiles, relative to its root.
#[prompt(icon_file = "no/such/icon.svg")]
fn review() -> String {
    String::new()
}

fn main() {}
