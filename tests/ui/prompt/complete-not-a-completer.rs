fn wrong(prefix: &str) -> Vec<String> {
    vec![prefix.to_owned()]
}

const COUNT: u32 = 3;

/// Pick a language
#[mcp_prompts::prompt]
fn pick(
    #[arg(complete = wrong)] language: String,
    #[arg(complete = COUNT)] count: u32,
) -> String {
    format!("{language} {count}")
}

fn main() {}
