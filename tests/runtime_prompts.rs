//! Prompts built at run time (`DynamicPrompt`), served by the fixture next
//! to its `#[prompt]` functions, over stdio: listed, called, checked,
//! completed, asked for when missing, and redacted when they panic, the
//! same way on the wire as macro prompts.

mod support;

use serde_json::{Value, json};

use support::{Client, LATEST, listed_prompt};

fn text(response: &Value) -> &str {
    response["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {response}"))
}

#[test]
fn a_run_time_prompt_is_listed_called_checked_and_completed() {
    let mut client = Client::ready(LATEST);
    let listed = client.call("prompts/list", json!({}));
    let echo = listed_prompt(&listed, "runtime_echo");
    assert_eq!(
        echo,
        json!({
            "name": "runtime_echo",
            "title": "Runtime echo",
            "description": "Echo a text, built at run time",
            "arguments": [
                {"name": "text", "description": "What to echo", "required": true},
                {"name": "tone", "description": "One of: plain, loud; default: plain", "required": false},
            ],
        })
    );

    let plain = client.get("runtime_echo", json!({"text": "hi"}));
    assert_eq!(text(&plain), format!("hi ({LATEST})"));
    assert_eq!(
        plain["result"]["description"],
        "Echo a text, built at run time"
    );
    let loud = client.get("runtime_echo", json!({"text": "hi", "tone": "Loud"}));
    assert_eq!(text(&loud), format!("HI ({LATEST})"));

    let bad = client.get("runtime_echo", json!({"text": "hi", "tone": "quiet"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(bad["error"]["data"]["choices"], json!(["plain", "loud"]));
    let missing = client.get("runtime_echo", json!({}));
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    assert_eq!(missing["error"]["data"]["missing"], json!(["text"]));

    let complete = |client: &mut Client, argument: &str, value: &str| {
        let reply = client.call(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "runtime_echo"},
                   "argument": {"name": argument, "value": value}}),
        );
        reply["result"]["completion"]["values"].clone()
    };
    assert_eq!(
        complete(&mut client, "text", "alp"),
        json!(["alpha", "alphabet"])
    );
    assert_eq!(complete(&mut client, "tone", "L"), json!(["loud"]));
    assert_eq!(complete(&mut client, "tone", ""), json!(["plain", "loud"]));
}

#[test]
fn a_missing_argument_of_a_run_time_prompt_is_asked_for() {
    let mut client = Client::start();
    client.initialize_with(LATEST, json!({"elicitation": {}}));
    client.send_line(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
                "params": {"name": "runtime_echo", "arguments": {"tone": "loud"}}})
        .to_string(),
    );
    let request = client.read();
    assert_eq!(request["method"], "elicitation/create", "{request}");
    assert_eq!(
        request["params"]["requestedSchema"],
        json!({"type": "object", "required": ["text"],
               "properties": {"text": {"type": "string", "description": "What to echo"}}})
    );
    let answer = json!({"jsonrpc": "2.0", "id": request["id"],
                        "result": {"action": "accept", "content": {"text": "asked"}}});
    client.send_line(&answer.to_string());
    let done = client.read();
    assert_eq!(done["id"], 1);
    assert_eq!(text(&done), format!("ASKED ({LATEST})"));
}

#[test]
fn a_panicking_run_time_prompt_shows_no_internal_text() {
    let mut client = Client::start_logging();
    client.initialize(LATEST);
    let failed = client.get("runtime_panics", json!({}));
    let error = &failed["error"];
    assert_eq!(error["code"], -32603, "{failed}");
    assert!(!failed.to_string().contains("hunter2"), "{failed}");
    let id = error["data"]["errorId"].as_str().expect("an error id");
    // The server keeps serving, and logged the full story under the id.
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
    let line = client.log_line(id);
    assert!(line.contains("ERROR") && line.contains("hunter2"), "{line}");
}
