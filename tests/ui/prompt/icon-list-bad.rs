use mcp_prompts::prompt;

// `icon(...)` takes one `url` or one `file`, then `sizes` and `theme`.
#[prompt(icon(url = "https://example.com/a.png", colour = "red"))]
fn unknown_key() -> String {
    String::new()
}

#[prompt(icon(url = "https://example.com/a.png", file = "a.png"))]
fn two_sources() -> String {
    String::new()
}

#[prompt(icon(sizes = ["48x48"]))]
fn no_source() -> String {
    String::new()
}

#[prompt(icon(url = "https://example.com/a.png", sizes = "48x48"))]
fn sizes_not_a_list() -> String {
    String::new()
}

#[prompt(icon(url = "https://example.com/a.png", theme = "dark", theme = "light"))]
fn theme_twice() -> String {
    String::new()
}

#[prompt(icon = https_url)]
fn url_not_a_string() -> String {
    String::new()
}

fn main() {}
