// Paths and folders the macro cannot embed as they stand.

// Not a string literal.
mcp_prompts::include_skill!(skills);

// A path whose last part names no folder.
mcp_prompts::include_skill!("assets/skills/..");

// Folders more than 16 deep within the skill.
mcp_prompts::include_skill!("assets/skills/deep");

// A file whose name is not UTF-8, which no URI can carry as it is.
mcp_prompts::include_skill!("assets/skills/odd-name");

// A FIFO: neither a file nor a folder.
mcp_prompts::include_skill!("assets/skills/pipe");

// A SKILL.md that is not UTF-8 text.
mcp_prompts::include_skill!("assets/skills/binary");

fn main() {}
