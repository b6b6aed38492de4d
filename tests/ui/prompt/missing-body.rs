/// Say hello
#[mcp_prompts::prompt]
fn hello(name: String) -> String;

fn main() {}
