//! Valid inputs that exercise odd corners: raw identifiers, async, visibility,
//! every return type, `Result`, injected context, and calling the function directly.

use mcp_prompts::{Error, Json, Message, PromptResult, RequestContext, prompt};

#[prompt]
pub(crate) fn r#type(r#match: String) -> String {
    r#match
}

#[prompt]
async fn later(text: Option<String>, _ctx: RequestContext) -> Message {
    Message::assistant(text.unwrap_or_default())
}

#[prompt(name = "full-result", description = "Overrides the doc comment")]
/// Ignored in favour of the attribute
fn full(#[arg(default = 1.5)] ratio: f32, #[arg(default = 'x')] c: char) -> PromptResult {
    PromptResult::new([Message::user(format!("{ratio}{c}"))]).with_description("custom")
}

#[prompt]
fn fallible(list: Json<Vec<u8>>, #[arg(default = true)] strict: bool) -> Result<Vec<Message>, Error> {
    let _ = strict;
    Ok(list.0.into_iter().map(|n| Message::user(n.to_string())).collect())
}

#[prompt]
fn static_text() -> &'static str {
    "fixed"
}

/// The Rust ABI, spelt out.
#[prompt]
extern "Rust" fn spelt_out(text: String) -> String {
    text
}

/// As many parameters as a prompt may take, sync and async.
#[prompt]
#[allow(clippy::too_many_arguments)]
fn twelve(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8, i: u8, j: u8, k: u8, l: u8) -> String {
    format!("{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}{k}{l}")
}

#[prompt]
#[allow(clippy::too_many_arguments)]
async fn twelve_later(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8, i: u8, j: u8, k: u8, l: u8) -> String {
    format!("{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}{k}{l}")
}

mod staff {
    pub fn only(caller: &mcp_prompts::Caller) -> bool {
        caller.subject().ends_with("@example.com")
    }
}

/// Shown only to callers with both scopes who pass the test
#[prompt(scopes = ["deploy", "repo:read"], visible = staff::only)]
fn restricted(service: String) -> String {
    service
}

/// An empty list of scopes restricts nothing
#[prompt(scopes = [])]
fn open_to_all() -> String {
    "open".to_owned()
}

fn main() {
    assert_eq!(r#type("called directly".to_owned()), "called directly");
    assert_eq!(static_text(), "fixed");
    let names: Vec<_> = mcp_prompts::registered_prompts().map(|p| p.name()).collect();
    for expected in ["type", "later", "full-result", "fallible", "static_text", "twelve", "twelve_later", "spelt_out", "restricted"] {
        assert!(names.contains(&expected), "{expected} is not registered: {names:?}");
    }
    let restriction = restricted::PROMPT.restriction().expect("restricted");
    assert_eq!(restriction.scopes, ["deploy", "repo:read"]);
    assert!(restricted::PROMPT.restriction().is_some() && twelve::PROMPT.restriction().is_none());
    assert!(open_to_all::PROMPT.restriction().is_none());
}
