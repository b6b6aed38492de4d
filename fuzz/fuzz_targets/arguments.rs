//! Every built-in argument parser and a derived choice enum, on any value.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use mcp_prompts::{Json, PromptArg};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = std::str::from_utf8(data) else {
        return;
    };
    let _ = String::parse_arg(value);
    let _ = u8::parse_arg(value);
    let _ = i128::parse_arg(value);
    let _ = u64::parse_arg(value);
    let _ = f32::parse_arg(value);
    let _ = f64::parse_arg(value);
    let _ = bool::parse_arg(value);
    let _ = char::parse_arg(value);
    let _ = std::net::IpAddr::parse_arg(value);
    let _ = std::path::PathBuf::parse_arg(value);
    let _ = Json::<serde_json::Value>::parse_arg(value);
    let _ = Json::<Vec<u32>>::parse_arg(value);
    if let Ok(tone) = common::Tone::parse_arg(value) {
        // What a choice parses to, it prints back the same way.
        assert_eq!(common::Tone::parse_arg(&tone.to_string()), Ok(tone));
    }
    let _ = common::Tone::canonical(value);
});
