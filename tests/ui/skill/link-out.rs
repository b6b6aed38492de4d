// A link in the folder may not lead out of it: the skill serves only what is in it.
mcp_prompts::include_skill!("assets/skills/leaky");

fn main() {}
