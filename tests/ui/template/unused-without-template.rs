/// Compose a greeting
#[mcp_prompts::prompt(unused = ["tone"])]
fn greet(name: String, tone: String) -> String {
    format!("{name} {tone}")
}

fn main() {}
