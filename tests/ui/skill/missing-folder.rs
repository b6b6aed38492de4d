// The folder is read when the crate compiles, relative to its root.
mcp_prompts::include_skill!("assets/skills/no-such-skill");

fn main() {}
