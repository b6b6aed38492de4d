use mcp_prompts::prompt;

const FIFTY: u32 = 50;

#[prompt]
fn summarize(#[arg(default = FIFTY)] max_words: u32) -> String {
    max_words.to_string()
}

fn main() {}
