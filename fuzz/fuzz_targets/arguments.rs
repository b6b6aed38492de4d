//! Every built-in argument parser, a derived choice enum and a run-time
//! prompt's choices, on any value.
#![no_main]

mod common;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mcp_prompts::testing::Client;
use mcp_prompts::{DynamicArgument, DynamicPrompt, Json, PromptArg, Server, Service};

/// Choices a run-time prompt accepts case-insensitively, Unicode included.
const CHOICES: [&str; 4] = ["formal", "Straße", "İstanbul", "ǅemal"];

/// A server with one run-time prompt that echoes its choice argument.
fn choice_service() -> &'static Service {
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let prompt = DynamicPrompt::builder("pick")
            .argument(DynamicArgument::new("choice").choices(CHOICES))
            .template("{choice}")
            .build()
            .unwrap();
        Server::new("fuzz", "1").prompts([prompt]).build().unwrap()
    })
}

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
    // A run-time choice comes out in its listed spelling, or is refused
    // with -32602.
    let client = Client::new(choice_service());
    let get = serde_json::json!({"name": "pick", "arguments": {"choice": value}});
    match common::runtime().block_on(client.request("prompts/get", &get)) {
        Ok(result) => {
            let text = result["messages"][0]["content"]["text"].as_str().unwrap();
            assert!(CHOICES.contains(&text), "{text:?} for {value:?}");
        }
        Err(error) => assert_eq!(error.code(), -32602, "{error:?}"),
    }
});
