use mcp_prompts::prompt;

// Embedded icons ride in every listing: at most 64 KiB.
#[prompt(icon_file = "../../../../tests/ui/prompt/assets/oversized.svg")]
fn review() -> String {
    String::new()
}

fn main() {}
