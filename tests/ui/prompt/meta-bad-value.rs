use mcp_prompts::prompt;

// A `_meta` value is a string, number or boolean literal; tags are a list.
#[prompt(meta("com.example/owner" = owner()), tags = "git")]
fn review() -> String {
    String::new()
}

fn main() {}
