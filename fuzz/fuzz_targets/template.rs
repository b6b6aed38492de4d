//! The template syntax (`mcp-prompts-template`), which `#[prompt(template =
//! ...)]` runs at compile time and a run-time prompt when it is built, on
//! any text; and its render, which stops at its cap.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_prompts::{DynamicArgument, DynamicPrompt};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A result or a parse error with its line, never a panic.
    let parsed = mcp_prompts_template::parse(text);
    // A render never passes its cap, whatever the template repeats.
    if let Ok(messages) = &parsed {
        let cap = data.len() % 97;
        for message in messages {
            let rendered = mcp_prompts_template::render(&message.parts, |_| "value", |_| true, cap);
            assert!(rendered.is_none_or(|text| text.len() <= cap));
        }
    }
    let checked = mcp_prompts_template::parse_checked(text, &|name: &str| name == "who");
    // Checking names only adds errors.
    if checked.is_ok() {
        assert!(parsed.is_ok());
    }
    if let Err(error) = &checked {
        assert!(error.line >= 1 && error.line <= text.lines().count().max(1) + 1);
    }
    // Optional, as the names a closure knows may be unset (sections on
    // them are allowed).
    let built = DynamicPrompt::builder("fuzz")
        .argument(DynamicArgument::new("who").optional())
        .template(text)
        .build();
    assert_eq!(built.is_ok(), checked.is_ok());
});
