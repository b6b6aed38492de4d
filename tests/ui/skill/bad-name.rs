// A skill's name follows the Agent Skills rules: lowercase letters, digits, single hyphens.
mcp_prompts::include_skill!("assets/skills/bad-name");

fn main() {}
