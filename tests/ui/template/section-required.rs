/// Review code
#[mcp_prompts::prompt(template = "Review {code}.\n{#language}\nIt is {language}.\n{/language}")]
fn review(code: String, language: String);

fn main() {}
