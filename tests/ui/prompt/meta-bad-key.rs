use mcp_prompts::prompt;

// `_meta` keys follow MCP's rules, and prefixes naming MCP are reserved.
#[prompt(meta("com.example/owner" = "team-x", "io.modelcontextprotocol/x" = 1, "-bad" = true))]
fn review() -> String {
    String::new()
}

fn main() {}
