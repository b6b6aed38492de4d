use mcp_prompts::prompt;

fn is_staff(subject: &str) -> bool {
    subject.ends_with("@example.com")
}

#[prompt(visible = is_staff)]
fn staff_notes() -> String {
    "notes".to_owned()
}

fn main() {}
