use mcp_prompts::prompt;

// Embedded icons ride in every listing: at most 64 KiB.
#[prompt(icon_file = "assets/oversized.svg")]
fn review() -> String {
    String::new()
}

fn main() {}
