//! Prompt functions compile cleanly under `-D warnings` and clippy's pedantic
//! group (CI runs clippy over this file): the expansion adds no warnings, and
//! owned parameters are not flagged.
#![deny(warnings, clippy::pedantic)]

use mcp_prompts::{Message, prompt};

/// Greet someone
#[prompt]
fn greet(
    /// Who to greet
    name: String,
    /// An optional note
    note: Option<String>,
) -> Vec<Message> {
    vec![Message::user(format!(
        "Hello {name}! {}",
        note.unwrap_or_default()
    ))]
}

#[test]
fn the_prompt_is_registered_and_callable() {
    assert!(mcp_prompts::registered_prompts().any(|p| p.name() == "greet"));
    assert_eq!(greet("Ann".into(), None).len(), 1);
}
