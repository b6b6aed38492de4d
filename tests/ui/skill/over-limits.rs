// A skill holds at most 512 files and 16 MiB, what every host must accept.
mcp_prompts::include_skill!("assets/skills/crowded");

fn main() {}
