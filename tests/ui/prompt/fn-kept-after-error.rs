use mcp_prompts::prompt;

/// The attribute is wrong, but the function still exists and is callable:
/// the one error below is all the user sees.
#[prompt(titel = "Greeting")]
fn greet(
    /// Who to greet
    #[arg(title = "Name")]
    name: String,
) -> String {
    format!("Hello, {name}!")
}

fn main() {
    let _: String = greet("Ann".to_owned());
}
