use mcp_prompts::prompt;

#[prompt(visible = |caller| caller.has_scope("staff"))]
fn staff_notes() -> String {
    "notes".to_owned()
}

fn main() {}
