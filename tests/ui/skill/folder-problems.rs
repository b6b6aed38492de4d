// Folders that are no skill as they stand.

// No SKILL.md at its root.
mcp_prompts::include_skill!("assets/skills/empty");

// A file, not a folder.
mcp_prompts::include_skill!("assets/skills/outside.txt");

// A link to a folder: as from folders at run time, links lead to files only.
mcp_prompts::include_skill!("assets/skills/linked");

// A file name its skill:// URI would have to escape.
mcp_prompts::include_skill!("assets/skills/hashed");

fn main() {}
