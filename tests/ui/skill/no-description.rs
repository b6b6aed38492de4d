// Hosts choose a skill by its description: it must have one.
mcp_prompts::include_skill!("assets/skills/undescribed");

fn main() {}
