mod a {
    /// One greeting
    #[mcp_prompts::prompt(name = "greet")]
    pub fn hello() -> String {
        "Hello".into()
    }
}

/// Another greeting
#[mcp_prompts::prompt]
fn greet() -> String {
    "Hi".into()
}

const PROMPTS: mcp_prompts::Catalog = mcp_prompts::catalog![a::hello, greet];

fn main() {
    let _ = PROMPTS;
}
