/// Review code
#[mcp_prompts::prompt(template = "Review {code}.{#langauge} It is {language}.{/langauge}")]
fn review(code: String, language: Option<String>);

fn main() {}
