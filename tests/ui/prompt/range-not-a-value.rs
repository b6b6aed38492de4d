use mcp_prompts::prompt;

/// A range bounds a number of the argument's type
#[prompt]
fn plan(
    #[arg(range = 1..=3)] name: String,
    #[arg(range = 0..=300)] hours: u8,
    #[arg(range = -1.5..)] ratio: f64,
) -> String {
    format!("{name} {hours} {ratio}")
}

fn main() {}
