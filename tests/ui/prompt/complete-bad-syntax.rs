/// Pick a language
#[mcp_prompts::prompt]
fn pick(
    #[arg(complete = "rust")] language: String,
    #[arg(complete = ["a", 1])] other: String,
    #[arg(complete = ["a"], complete = ["b"])] third: String,
) -> String {
    format!("{language} {other} {third}")
}

fn main() {}
