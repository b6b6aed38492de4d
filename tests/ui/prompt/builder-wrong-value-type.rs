/// Summarize a text
#[mcp_prompts::prompt]
fn summarize(text: String, max_words: u32) -> String {
    format!("{text} {max_words}")
}

fn main() {
    let _ = summarize::args().text("t").max_words(1.5);
}
