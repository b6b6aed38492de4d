// A skill folder with a supporting file, a nested skill and a hidden file
// (left out), embedded and served by every server unless it says not to.
mcp_prompts::include_skill!("assets/skills/good");

fn main() {
    let service = mcp_prompts::Server::new("t", "1").build().unwrap();
    assert_eq!(service.skill_count(), 2);
    let without = mcp_prompts::Server::new("t", "1")
        .embedded_skills(false)
        .build()
        .unwrap();
    assert_eq!(without.skill_count(), 0);
    // A skill from code at the nested skill's path is a second one there.
    let nested = mcp_prompts::DynamicSkill::builder("good/nested")
        .description("Also nested")
        .build()
        .unwrap();
    let twice = mcp_prompts::Server::new("t", "1").skill(nested).build();
    let problems = twice.err().unwrap().problems().join("\n");
    assert!(problems.contains("two skills have the path `good/nested`"), "{problems}");
}
