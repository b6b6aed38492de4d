/// Unmatched closing brace
#[mcp_prompts::prompt(template = "Hello } there")]
fn closing();

/// Unclosed placeholder
#[mcp_prompts::prompt(template = "Hello {name")]
fn unclosed(name: String);

/// Not a placeholder name
#[mcp_prompts::prompt(template = "Hello { name }")]
fn spaced(name: String);

/// Empty message after a marker
#[mcp_prompts::prompt(template = "Hello\n--- assistant\n\n--- user\nBye")]
fn empty_message();

/// Empty template
#[mcp_prompts::prompt(template = "")]
fn empty();

fn main() {}
