use mcp_prompts::prompt;

// `_meta` keys once each, not the tags key, as string literals; values
// that fit; tags that are text; `as_tool` a boolean.
#[prompt(meta("com.example/a" = 1, "com.example/a" = 2, "mcp-prompts/tags" = "x"))]
fn meta_keys() -> String {
    String::new()
}

#[prompt(meta(owner = "team-x"))]
fn meta_key_not_a_string() -> String {
    String::new()
}

#[prompt(meta("com.example/big" = 99999999999999999999))]
fn meta_too_big() -> String {
    String::new()
}

#[prompt(tags = ["git", " spaced"])]
fn bad_tag() -> String {
    String::new()
}

#[prompt(as_tool = "no")]
fn as_tool_not_a_bool() -> String {
    String::new()
}

fn main() {}
