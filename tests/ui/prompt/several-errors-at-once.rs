use mcp_prompts::prompt;

#[prompt(titel = "Greeting", name = "")]
fn greet(#[arg(nmae = "who")] name: String, (a, b): (u8, u8)) -> String {
    format!("{name}{a}{b}")
}

fn main() {}
