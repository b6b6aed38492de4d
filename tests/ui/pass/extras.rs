//! Every way to declare icons, `_meta`, tags and `as_tool`.

use mcp_prompts::prompt;

/// Review a change
#[prompt(
    icon_file = "assets/review.svg",
    icon = "https://example.com/review.png",
    icon(url = "https://example.com/review-dark.png", sizes = ["48x48", "any"], theme = "dark"),
    icon(file = "assets/review.svg", theme = "light"),
    meta("com.example/owner" = "team-x", "com.example/rank" = -3, "com.example/weight" = 1.5, "beta" = false),
    tags = ["code", "review"],
    as_tool = false
)]
fn review() -> String {
    String::new()
}

/// Tagged only
#[prompt(tags = ["git"])]
fn tagged() -> String {
    String::new()
}

fn main() {
    let extras = review::PROMPT.extras().expect("registered");
    assert_eq!(extras.icons.len(), 4);
    assert!(extras.icons[0].src().starts_with("data:image/svg+xml;base64,"));
    assert_eq!(extras.tags, ["code", "review"]);
    assert!(!extras.as_tool);
    assert_eq!(extras.meta.len(), 4);
    assert!(tagged::PROMPT.extras().unwrap().as_tool);
}
