//! The template syntax (`mcp-prompts-template`), which `#[prompt(template =
//! ...)]` runs at compile time and a run-time prompt when it is built, on
//! any text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_prompts::{DynamicArgument, DynamicPrompt};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A result or a parse error with its line, never a panic.
    let parsed = mcp_prompts_template::parse(text);
    let checked = mcp_prompts_template::parse_checked(text, &|name| name == "who");
    // Checking names only adds errors.
    if checked.is_ok() {
        assert!(parsed.is_ok());
    }
    if let Err(error) = &checked {
        assert!(error.line >= 1 && error.line <= text.lines().count().max(1) + 1);
    }
    let built = DynamicPrompt::builder("fuzz")
        .argument(DynamicArgument::new("who"))
        .template(text)
        .build();
    assert_eq!(built.is_ok(), checked.is_ok());
});
