// A SKILL.md's front matter, checked as a folder's is at run time: each
// error names the file and what is wrong, on the path.

mcp_prompts::include_skill!("assets/skills/unclosed");
mcp_prompts::include_skill!("assets/skills/not-yaml");
mcp_prompts::include_skill!("assets/skills/listed");
mcp_prompts::include_skill!("assets/skills/numbered");
mcp_prompts::include_skill!("assets/skills/elsewhere");
mcp_prompts::include_skill!("assets/skills/licensed");
mcp_prompts::include_skill!("assets/skills/tagged");
mcp_prompts::include_skill!("assets/skills/old");
mcp_prompts::include_skill!("assets/skills/meta");
mcp_prompts::include_skill!("assets/skills/scoped");
mcp_prompts::include_skill!("assets/skills/wordy");
mcp_prompts::include_skill!("assets/skills/keyed");
mcp_prompts::include_skill!("assets/skills/nameless");
mcp_prompts::include_skill!("assets/skills/undescribed-list");

fn main() {}
