use mcp_prompts::prompt;

// Clients reject icons from schemes other than https: and data:; a file
// must be an image they render; sizes are `WxH` or `any`.
#[prompt(icon = "http://example.com/a.png", icon_file = "notes.txt")]
fn review() -> String {
    String::new()
}

#[prompt(icon(url = "https://example.com/a.png", sizes = ["big"], theme = "sepia"))]
fn summarize() -> String {
    String::new()
}

fn main() {}
