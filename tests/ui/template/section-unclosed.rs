/// Review code
#[mcp_prompts::prompt(template = "Review {code}.\n{#language}\nIt is {language}.")]
fn review(code: String, language: Option<String>);

fn main() {}
