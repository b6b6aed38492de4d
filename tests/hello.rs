//! `examples/hello.rs`, the smallest server, run as a client runs it: its
//! one prompt listed with what the doc comments say, and rendered.

mod http_support;
mod support;

use std::process::Command;

use serde_json::json;

use http_support::example_binary;
use support::{Client, LATEST};

#[test]
fn the_hello_example_serves_its_one_prompt() {
    let mut client = Client::start_program(Command::new(example_binary("hello")));
    client.initialize(LATEST);
    let listed = client.call("prompts/list", json!({}));
    assert_eq!(
        listed["result"]["prompts"],
        json!([{
            "name": "hello",
            "description": "Greet someone",
            "arguments": [{"name": "name", "description": "Who to greet", "required": true}],
        }]),
        "{listed}"
    );
    let got = client.get("hello", json!({"name": "Ada"}));
    assert_eq!(
        got["result"]["messages"],
        json!([{"role": "user", "content": {"type": "text",
                "text": "Say hello to Ada, warmly and in one sentence."}}]),
        "{got}"
    );
    let missing = client.get("hello", json!({}));
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    let (rest, status) = client.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert!(status.success(), "{status}");
}
