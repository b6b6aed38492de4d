//! The template parser `#[prompt(template = ...)]` runs at compile time,
//! compiled in here from the macro crate's source, on any text.
#![no_main]

#[allow(dead_code)]
#[path = "../../mcp-prompts-macros/src/template.rs"]
mod template;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A result or a parse error with its line, never a panic.
    let _ = template::parse(text);
});
