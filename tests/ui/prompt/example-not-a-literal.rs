use mcp_prompts::prompt;

const SAMPLE: &str = "src/main.rs";

/// Read a file
#[prompt]
fn read(#[arg(example = SAMPLE)] path: String) -> String {
    path
}

fn main() {}
