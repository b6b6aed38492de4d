// A skill folder with a supporting file, a nested skill and a hidden file
// (left out), embedded and served.
mcp_prompts::include_skill!("assets/skills/good");

fn main() {
    let service = mcp_prompts::Server::new("t", "1").build().unwrap();
    assert_eq!(service.skill_count(), 2);
}
