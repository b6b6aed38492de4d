//! Drives a real server process over stdin/stdout, as an MCP client does.

mod support;

use serde_json::{Value, json};
use support::{Client, LATEST, listed_prompt};

#[test]
fn initialize_negotiates_every_supported_version() {
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut client = Client::start();
        let result = client.initialize(version);
        assert_eq!(result["protocolVersion"], version);
        // The fixture has completers; 2024-11-05 has no capability for them.
        let mut capabilities = json!({"prompts": {"listChanged": true}, "logging": {}});
        if version != "2024-11-05" {
            capabilities["completions"] = json!({});
        }
        assert_eq!(result["capabilities"], capabilities, "{version}");
        assert_eq!(result["serverInfo"]["name"], "fixture");
        assert_eq!(result["serverInfo"]["version"], "1.0.0");
        let has_title = version >= "2025-06-18";
        assert_eq!(
            result["serverInfo"].get("title").is_some(),
            has_title,
            "{version}"
        );
    }
    let mut client = Client::start();
    assert_eq!(client.initialize("1999-01-01")["protocolVersion"], LATEST);
}

#[test]
fn requests_before_initialize_are_answered() {
    let mut client = Client::start();
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
    let list = client.call("prompts/list", json!({}));
    assert_eq!(list["error"]["code"], -32600, "{list}");
    // A 2026-07-28 method without the `_meta` every such request carries.
    let discover = client.call("server/discover", json!({}));
    assert_eq!(discover["error"]["code"], -32602, "{discover}");
    client.initialize(LATEST);
    let again = client.call("initialize", json!({"protocolVersion": LATEST}));
    assert_eq!(again["error"]["code"], -32600);
    assert!(client.call("prompts/list", json!({}))["result"]["prompts"].is_array());
}

#[test]
fn lists_the_showcase_catalog() {
    let mut client = Client::ready(LATEST);
    let prompts = client.call("prompts/list", Value::Null)["result"]["prompts"].clone();
    let prompts = prompts.as_array().unwrap();
    // Registration must not silently fail: every prompt is present.
    assert!(
        prompts.len() >= 15,
        "only {} prompts registered",
        prompts.len()
    );
    // Icons are checked in tests/reach.rs; here, that they are there.
    let find = |name: &str| {
        let mut prompt = prompts.iter().find(|p| p["name"] == name).cloned().unwrap();
        if let Some(icons) = prompt.as_object_mut().unwrap().remove("icons") {
            assert_eq!(icons.as_array().map(Vec::len), Some(1), "{name}: {icons}");
        }
        prompt
    };
    assert_eq!(
        find("test_simple_prompt"),
        json!({
            "name": "test_simple_prompt", "title": "Simple Test Prompt",
            "description": "A simple prompt without arguments"
        })
    );
    assert_eq!(
        find("test_prompt_with_arguments"),
        json!({
            "name": "test_prompt_with_arguments", "title": "Prompt With Arguments",
            "description": "A prompt with required arguments",
            "arguments": [
                {"name": "arg1", "description": "First test argument", "required": true},
                {"name": "arg2", "description": "Second test argument", "required": true}
            ]
        })
    );
    assert_eq!(
        find("test_prompt_with_embedded_resource")["arguments"],
        json!([
            {"name": "resourceUri", "description": "URI of the resource to embed", "required": true}
        ])
    );
    assert_eq!(find("test_prompt_with_image")["title"], "Prompt With Image");
    assert_eq!(
        find("code_review"),
        json!({
            "name": "code_review", "title": "Review code", "description": "Review a code snippet",
            "_meta": {"mcp-prompts/tags": ["code", "review"]},
            "arguments": [
                {"name": "language", "description": "Programming language of the snippet", "required": true},
                {"name": "code", "description": "The code to review", "required": true},
                {"name": "focus", "description": "What the review should focus on", "required": false}
            ]
        })
    );
    assert_eq!(
        find("summarize"),
        json!({
            "name": "summarize", "title": "Summarize", "description": "Summarize a text",
            "arguments": [
                {"name": "text", "description": "The text to summarize", "required": true},
                {"name": "max_words", "description": "The most words the summary may use (default: 50)", "required": false}
            ]
        })
    );
    // The injected context is not an argument.
    assert_eq!(
        find("whoami")["arguments"],
        json!([{"name": "who", "required": false}])
    );
}

#[test]
fn listing_follows_the_revision() {
    let mut client = Client::ready("2024-11-05");
    let list = client.call("prompts/list", json!({}));
    for prompt in list["result"]["prompts"].as_array().unwrap() {
        assert!(prompt.get("title").is_none(), "{prompt}");
    }
}

#[test]
fn pages_with_opaque_cursors() {
    let mut whole = Client::ready(LATEST);
    let all = whole.call("prompts/list", json!({}))["result"]["prompts"].clone();
    let mut client = Client::start_with(&[("FIXTURE_PAGE_SIZE", "4")]);
    client.initialize(LATEST);
    let mut seen = Vec::new();
    let mut params = json!({});
    loop {
        let result = client.call("prompts/list", params)["result"].clone();
        let page = result["prompts"].as_array().unwrap();
        assert!(page.len() <= 4);
        seen.extend(page.iter().cloned());
        match result.get("nextCursor") {
            Some(cursor) => params = json!({ "cursor": cursor }),
            None => break,
        }
    }
    assert_eq!(Value::Array(seen), all);
    let bad = client.call("prompts/list", json!({"cursor": "not-a-cursor"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
}

fn messages(response: &Value) -> Value {
    assert!(response.get("error").is_none(), "{response}");
    response["result"]["messages"].clone()
}

fn user_text(text: &str) -> Value {
    json!({"role": "user", "content": {"type": "text", "text": text}})
}

#[test]
fn gets_the_showcase_prompts_exactly() {
    let mut client = Client::ready(LATEST);
    let simple = client.get("test_simple_prompt", json!({}));
    assert_eq!(
        simple["result"]["description"],
        "A simple prompt without arguments"
    );
    assert_eq!(
        messages(&simple),
        json!([user_text("This is a simple prompt for testing.")])
    );

    let with_args = client.get(
        "test_prompt_with_arguments",
        json!({"arg1": "testValue1", "arg2": "testValue2"}),
    );
    assert_eq!(
        messages(&with_args),
        json!([user_text(
            "Prompt with arguments: arg1='testValue1', arg2='testValue2'"
        )])
    );

    let embedded = client.get(
        "test_prompt_with_embedded_resource",
        json!({"resourceUri": "test://example-resource"}),
    );
    assert_eq!(
        messages(&embedded),
        json!([
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": "test://example-resource", "mimeType": "text/plain",
                "text": "Embedded resource content for testing."}}},
            user_text("Please process the embedded resource above.")
        ])
    );

    let image = client.get("test_prompt_with_image", json!({}));
    assert_eq!(
        messages(&image),
        json!([
            {"role": "user", "content": {"type": "image", "mimeType": "image/png",
                "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="}},
            user_text("Please analyze the image above.")
        ])
    );

    let review = client.get(
        "code_review",
        json!({"language": "rust", "code": "fn main() {}"}),
    );
    assert_eq!(
        messages(&review),
        json!([
            user_text("I am reviewing rust code."),
            {"role": "assistant", "content": {"type": "text", "text": "I will look at correctness first, then style."}},
            user_text("Review this code with a focus on general quality:\n\nfn main() {}")
        ])
    );
    let focused = client.get(
        "code_review",
        json!({"language": "go", "code": "x", "focus": "naming"}),
    );
    assert_eq!(
        messages(&focused)[2],
        user_text("Review this code with a focus on naming:\n\nx")
    );

    let summary = client.get("summarize", json!({"text": "Long text."}));
    assert_eq!(
        messages(&summary),
        json!([user_text(
            "Summarize the following text in at most 50 words:\n\nLong text."
        )])
    );
    let summary = client.get("summarize", json!({"text": "T", "max_words": "7"}));
    assert_eq!(
        messages(&summary)[0]["content"]["text"],
        "Summarize the following text in at most 7 words:\n\nT"
    );
    // Some clients send numbers where the spec says string.
    let summary = client.get("summarize", json!({"text": "T", "max_words": 9}));
    assert_eq!(
        messages(&summary)[0]["content"]["text"],
        "Summarize the following text in at most 9 words:\n\nT"
    );
    // An empty string is a value, not a missing argument.
    let empty = client.get(
        "test_prompt_with_arguments",
        json!({"arg1": "", "arg2": "b", "extra": "ignored"}),
    );
    assert_eq!(
        messages(&empty),
        json!([user_text("Prompt with arguments: arg1='', arg2='b'")])
    );
}

/// What a type says of how its values are written is listed where hosts
/// show it: after the argument's description, with its choices.
#[test]
fn argument_types_describe_their_format_in_the_listing() {
    let mut client = Client::ready(LATEST);
    let listed = client.call("prompts/list", json!({}));
    let typed = listed_prompt(&listed, "typed.args");
    let described = |name: &str| {
        typed["arguments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .map(|a| a["description"].clone())
            .unwrap()
    };
    assert_eq!(described("list"), "Format: JSON", "{typed}");
    assert_eq!(described("flag"), "One of: true, false", "{typed}");
    assert_eq!(described("offset"), "Default: -1", "{typed}");
}

#[test]
fn unparseable_arguments_name_the_argument() {
    let mut client = Client::ready(LATEST);
    for bad in ["abc", "-3", "1.5"] {
        let response = client.get("summarize", json!({"text": "T", "max_words": bad}));
        let error = &response["error"];
        assert_eq!(error["code"], -32602, "{response}");
        assert!(
            error["message"].as_str().unwrap().contains("`max_words`"),
            "{error}"
        );
        assert_eq!(error["data"]["argument"], "max_words");
        assert_eq!(error["data"]["expected"], "an integer from 0 to 4294967295");
    }
    let response = client.get(
        "typed.args",
        json!({"flag": "maybe", "letter": "x", "ratio": "1", "list": "[]"}),
    );
    assert_eq!(response["error"]["data"]["argument"], "flag", "{response}");
    let response = client.get(
        "typed.args",
        json!({"flag": true, "letter": "x", "ratio": "1", "list": "[1,"}),
    );
    assert_eq!(response["error"]["data"]["argument"], "list", "{response}");
    let response = client.get("summarize", json!({"text": {"nested": true}}));
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

#[test]
fn typed_arguments_parse() {
    let mut client = Client::ready(LATEST);
    let response = client.get(
        "typed.args",
        json!({"flag": "TRUE", "letter": "é", "ratio": 1.5, "list": "[1, 2]", "small": "-8"}),
    );
    assert_eq!(
        messages(&response)[0]["content"]["text"],
        "true é 1.5 [1, 2] Some(-8) -1"
    );
    let response = client.get(
        "typed.args",
        json!({"flag": false, "letter": "x", "ratio": "2", "list": "[]", "offset": "4"}),
    );
    assert_eq!(
        messages(&response)[0]["content"]["text"],
        "false x 2 [] None 4"
    );
}

#[test]
fn prompt_errors_use_the_spec_codes() {
    let mut client = Client::ready(LATEST);
    let unknown = client.get("no_such_prompt", json!({}));
    assert_eq!(unknown["error"]["code"], -32602);
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no_such_prompt")
    );

    let missing = client.get("test_prompt_with_arguments", json!({}));
    assert_eq!(missing["error"]["code"], -32602);
    assert_eq!(missing["error"]["data"]["missing"], json!(["arg1", "arg2"]));
    let message = missing["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("`arg1`") && message.contains("`arg2`"),
        "{message}"
    );

    let failed = client.get("fails", json!({}));
    assert_eq!(
        failed["error"],
        json!({"code": -32603, "message": "the backend is down"})
    );
    // A foreign error and a panic reach the client as a generic -32603
    // (see `failures_that_were_not_meant_for_the_client_are_redacted`).
    for name in ["fails_io", "panics", "panics_async"] {
        let failed = client.get(name, json!({}));
        assert_eq!(failed["error"]["code"], -32603, "{failed}");
        assert_eq!(failed["error"]["message"], "Internal error", "{failed}");
    }
    // The server keeps serving.
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
    let simple = client.get("test_simple_prompt", json!({}));
    assert!(simple["result"]["messages"].is_array());
}

/// A prompt's context sees its request cancelled, so work the prompt left
/// running (here, a spawned task) can stop too; no response is sent.
#[test]
fn a_prompt_sees_its_cancellation() {
    cancelled_prompt_logs("awaits_cancel", "cancelled: true");
}

/// A prompt that takes a context is in flight from its first poll: what
/// its context reads there is not a request that cannot be cancelled.
#[test]
fn a_prompt_asking_at_once_still_sees_its_cancellation() {
    cancelled_prompt_logs("awaits_cancel_asked_at_once", "cancelled after false");
}

/// Asks for prompt `name`, cancels it, and reads the log message its
/// context's watcher sends: `logged`. The cancelled request gets no
/// response: the next message answers a ping.
fn cancelled_prompt_logs(name: &str, logged: &str) {
    let mut client = Client::ready(LATEST);
    client.send_line(
        &json!({"jsonrpc": "2.0", "id": 77, "method": "prompts/get", "params": {"name": name}})
            .to_string(),
    );
    std::thread::sleep(std::time::Duration::from_millis(100));
    client.notify("notifications/cancelled", json!({"requestId": 77}));
    let note = client.read();
    assert_eq!(note["method"], "notifications/message", "{note}");
    assert_eq!(note["params"]["data"], logged);
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
}

/// A prompt that waits goes on past its wait in its own task, which holds
/// a place among the requests in flight, never on the thread that reads
/// stdin (which would stop reading while it ran).
#[test]
fn a_prompt_that_waits_goes_on_in_its_task() {
    let mut client = Client::ready(LATEST);
    let got = client.get("waits_then_says_where", json!({}));
    let thread = &got["result"]["messages"][0]["content"]["text"];
    assert!(thread.is_string(), "{got}");
    assert_ne!(thread, "mcp-prompts-stdin", "{got}");
}

#[test]
fn progress_arrives_before_the_response_and_only_when_asked() {
    let mut client = Client::ready(LATEST);
    let asked =
        json!({"name": "steps", "arguments": {"count": "3"}, "_meta": {"progressToken": "p1"}});
    client.send_line(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": asked}).to_string(),
    );
    for step in 1..=3 {
        let note = client.read();
        assert_eq!(
            note,
            json!({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progressToken": "p1", "progress": f64::from(step), "total": 3.0,
                              "message": format!("step {step}")}})
        );
    }
    assert_eq!(client.read()["id"], 1);
    // Nothing after the response: the prompt's late call is dropped.
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
    // Without a token, no progress at all.
    let quiet = client.get("steps", json!({"count": "2"}));
    assert_eq!(quiet["result"]["messages"][0]["content"]["text"], "2 steps");
}

/// A foreign error's message and a panic's can name hosts, paths or
/// credentials: the client gets `Internal error` and an error id, the log
/// gets the whole story under the same id.
#[test]
fn failures_that_were_not_meant_for_the_client_are_redacted() {
    let mut client = Client::start_logging();
    client.initialize(LATEST);
    let mut ids = Vec::new();
    for (name, detail) in [
        ("fails_io", "disk on fire"),
        ("panics", "the prompt broke"),
        ("panics_async", "the async prompt broke"),
    ] {
        let failed = client.get(name, json!({}));
        let error = &failed["error"];
        let id = error["data"]["errorId"]
            .as_str()
            .unwrap_or_else(|| panic!("{failed}"))
            .to_owned();
        assert_eq!(
            error,
            &json!({"code": -32603, "message": "Internal error", "data": {"errorId": id}})
        );
        assert!(!failed.to_string().contains(detail), "{failed}");
        ids.push((id, name, detail));
    }
    // An error the prompt built on purpose passes as written.
    let meant = client.get("fails", json!({}));
    assert_eq!(
        meant["error"],
        json!({"code": -32603, "message": "the backend is down"})
    );
    for (id, name, detail) in ids {
        let line = client.log_line(&id);
        assert!(
            line.contains("ERROR") && line.contains(name) && line.contains(detail),
            "{line}"
        );
    }
}

#[test]
fn json_rpc_errors() {
    let mut client = Client::ready(LATEST);
    let parse = client.send_raw("{not json");
    assert_eq!(
        parse,
        json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "parse error: the message is not valid JSON"}})
    );
    assert_eq!(client.send_raw("5")["error"]["code"], -32600);
    let no_version = client.send_raw(r#"{"id":3,"method":"ping"}"#);
    assert_eq!(
        (
            no_version["id"].clone(),
            no_version["error"]["code"].clone()
        ),
        (json!(3), json!(-32600))
    );
    let null_id = client.send_raw(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#);
    assert_eq!(null_id["error"]["code"], -32600);
    assert!(null_id.get("id").is_none());
    let unknown = client.send_raw(r#"{"jsonrpc":"2.0","id":"abc","method":"tools/list"}"#);
    assert_eq!(
        (unknown["id"].clone(), unknown["error"]["code"].clone()),
        (json!("abc"), json!(-32601))
    );
    // Notifications are never answered: the next line out is the ping's.
    client.notify("notifications/whatever", json!({}));
    client.notify("ping", json!({}));
    let ping = client.send_raw(r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#);
    assert_eq!(ping, json!({"jsonrpc": "2.0", "id": 0, "result": {}}));
}

#[test]
fn batches_only_under_2025_03_26() {
    let mut client = Client::ready("2025-03-26");
    let batch = client.send_raw(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"code_review","arguments":{"language":"c","code":"x"}}}]"#);
    let items = batch.as_array().expect("a batch response");
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["id"], 1);
    assert_eq!(items[1]["id"], 2);
    assert!(items[1]["result"]["messages"].is_array());

    let mut client = Client::ready("2025-06-18");
    let rejected = client.send_raw(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
    assert_eq!(rejected["error"]["code"], -32600);
}

#[test]
fn content_follows_the_revision() {
    let mut old = Client::ready("2024-11-05");
    let audio = old.get("audio_clip", json!({}));
    assert_eq!(audio["error"]["code"], -32603, "{audio}");
    assert!(
        audio["error"]["message"]
            .as_str()
            .unwrap()
            .contains("audio")
    );
    let mut mid = Client::ready("2025-03-26");
    let audio = mid.get("audio_clip", json!({}));
    assert_eq!(
        messages(&audio)[0]["content"],
        json!({"type": "audio", "data": "AQID", "mimeType": "audio/wav"})
    );
    assert_eq!(mid.get("link", json!({}))["error"]["code"], -32603);
    let mut new = Client::ready("2025-06-18");
    let link = new.get("link", json!({}));
    assert_eq!(
        messages(&link)[0]["content"],
        json!({"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt"})
    );
}

#[test]
fn prompts_see_their_request_context() {
    let mut client = Client::ready("2025-06-18");
    let log = client.send_raw(r#"{"jsonrpc":"2.0","id":"req-7","method":"prompts/get","params":{"name":"whoami","arguments":{"who":"ann"}}}"#);
    assert_eq!(
        log,
        json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "whoami was called"}})
    );
    let response = client.read();
    assert_eq!(
        messages(&response)[0]["content"]["text"],
        "ann asks request \"req-7\" over 2025-06-18"
    );
}

#[test]
fn logging_set_level() {
    let mut client = Client::ready(LATEST);
    let ok = client.call("logging/setLevel", json!({"level": "warning"}));
    assert_eq!(ok["result"], json!({}));
    // Below the level set, the prompt's info message is not sent: the next
    // line is the prompt's own response.
    let response = client.get("whoami", json!({}));
    assert!(response["result"]["messages"].is_array(), "{response}");
    let bad = client.call("logging/setLevel", json!({"level": "loud"}));
    assert_eq!(bad["error"]["code"], -32602);
}

#[test]
fn oversized_messages_are_answered_and_skipped() {
    let mut client = Client::start_with(&[("FIXTURE_MAX_MESSAGE_BYTES", "1000")]);
    client.initialize(LATEST);
    let big = format!(
        r#"{{"method":"prompts/get","params":{{"name":"summarize","arguments":{{"text":"{}"}}}},"jsonrpc":"2.0","id":77}}"#,
        "x".repeat(100_000)
    );
    let response = client.send_raw(&big);
    assert_eq!(response["id"], 77, "{response}");
    assert_eq!(response["error"]["code"], -32600);
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
}

#[test]
fn a_slow_prompt_does_not_delay_a_ping() {
    let mut client = Client::ready(LATEST);
    client.send_line(
        &json!({"jsonrpc": "2.0", "id": 500, "method": "prompts/get",
        "params": {"name": "slow", "arguments": {"ms": "3000"}}})
        .to_string(),
    );
    client.send_line(r#"{"jsonrpc":"2.0","id":501,"method":"ping"}"#);
    let first = client.read();
    assert_eq!(first["id"], 501, "the ping waited for the slow prompt");
    assert_eq!(client.read()["id"], 500);
}

#[test]
fn end_of_input_answers_everything_in_flight() {
    let mut client = Client::ready(LATEST);
    for id in 0..20 {
        client.send_line(
            &json!({"jsonrpc": "2.0", "id": id, "method": "prompts/get",
            "params": {"name": "slow", "arguments": {"ms": (20 - id) * 10}}})
            .to_string(),
        );
    }
    let (responses, status) = client.finish();
    assert!(status.success(), "exit status {status}");
    let mut ids: Vec<i64> = responses
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..20).collect::<Vec<_>>());
    assert!(responses.iter().all(|r| r["result"]["messages"].is_array()));
}

fn complete(client: &mut Client, prompt: &str, argument: &str, value: &str) -> Value {
    client.call(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": prompt},
               "argument": {"name": argument, "value": value}}),
    )
}

fn values(response: &Value) -> Value {
    response["result"]["completion"]["values"].clone()
}

#[test]
fn completion_is_declared_from_2025_03_26_and_served_in_every_revision() {
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut client = Client::ready(version);
        let init = client.call("initialize", json!({"protocolVersion": version}));
        assert_eq!(init["error"]["code"], -32600, "already initialized");
        let response = complete(&mut client, "completes", "flag", "T");
        assert_eq!(values(&response), json!(["true"]), "{version}: {response}");
    }
    let mut client = Client::start();
    assert_eq!(
        client.initialize("2024-11-05")["capabilities"].get("completions"),
        None
    );
    let mut client = Client::start();
    assert_eq!(
        client.initialize("2025-03-26")["capabilities"]["completions"],
        json!({})
    );
    let mut early = Client::start();
    let response = complete(&mut early, "completes", "flag", "");
    assert_eq!(response["error"]["code"], -32600, "{response}");
}

#[test]
fn static_lists_are_filtered_ordered_and_capped() {
    let mut client = Client::ready(LATEST);
    let inline = complete(&mut client, "completes", "inline", "ALP");
    assert_eq!(
        inline["result"]["completion"],
        json!({"values": ["alpha", "Alphabet"], "total": 2, "hasMore": false})
    );
    let exact = complete(&mut client, "completes", "inline", "alphabet");
    assert_eq!(values(&exact), json!(["Alphabet"]));
    let flag = complete(&mut client, "completes", "flag", "");
    assert_eq!(values(&flag), json!(["true", "false"]));
    // An explicit completer replaces the type's own choices.
    let overridden = complete(&mut client, "completes", "overridden", "");
    assert_eq!(values(&overridden), json!(["yes please"]));
    let many = complete(&mut client, "completes", "many", "");
    let completion = &many["result"]["completion"];
    assert_eq!(completion["values"].as_array().unwrap().len(), 100);
    assert_eq!(completion["values"][0], "item0999");
    assert_eq!(
        (&completion["total"], &completion["hasMore"]),
        (&json!(1000), &json!(true))
    );
    let some = complete(&mut client, "completes", "many", "item001");
    assert_eq!(some["result"]["completion"]["total"], 10);
    assert_eq!(some["result"]["completion"]["values"][0], "item0019");
    let none = complete(&mut client, "completes", "plain", "x");
    assert_eq!(
        none["result"]["completion"],
        json!({"values": [], "total": 0, "hasMore": false})
    );
    let unknown_argument = complete(&mut client, "completes", "no_such_argument", "x");
    assert_eq!(values(&unknown_argument), json!([]));
}

#[test]
fn completer_values_are_ranked_and_async_completers_work() {
    let mut client = Client::ready(LATEST);
    let response = complete(&mut client, "completes", "later", "x");
    assert_eq!(
        response["result"]["completion"],
        json!({"values": ["x-later", "other"], "total": 2, "hasMore": false})
    );
}

#[test]
fn failing_completers_are_internal_errors_and_the_server_goes_on() {
    let mut client = Client::ready(LATEST);
    let broken = complete(&mut client, "completes", "broken", "");
    assert_eq!(broken["error"]["code"], -32603, "{broken}");
    assert!(
        broken["error"]["message"]
            .as_str()
            .unwrap()
            .contains("index is down")
    );
    for argument in ["explosive", "explosive_async"] {
        let response = complete(&mut client, "completes", argument, "");
        assert_eq!(response["error"]["code"], -32603, "{response}");
        assert_eq!(response["error"]["message"], "Internal error", "{response}");
        assert!(
            response["error"]["data"]["errorId"].is_string(),
            "{response}"
        );
    }
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
}

#[test]
fn malformed_completion_requests_are_invalid_params() {
    let mut client = Client::ready(LATEST);
    let unknown = complete(&mut client, "no_such_prompt", "x", "");
    assert_eq!(unknown["error"]["code"], -32602);
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no_such_prompt")
    );
    for params in [
        json!({}),
        json!({"argument": {"name": "flag", "value": ""}}),
        json!({"ref": {"type": "ref/prompt", "name": "completes"}}),
        json!({"ref": {"type": "ref/prompt", "name": "completes"}, "argument": {"name": "flag"}}),
        json!({"ref": {"type": "ref/prompt"}, "argument": {"name": "flag", "value": ""}}),
        json!({"ref": {"type": "ref/tool", "name": "x"}, "argument": {"name": "flag", "value": ""}}),
        json!({"ref": "completes", "argument": {"name": "flag", "value": ""}}),
        json!({"ref": {"type": "ref/resource", "uri": "file:///{path}"},
               "argument": {"name": "path", "value": ""}}),
    ] {
        let response = client.call("completion/complete", params.clone());
        assert_eq!(response["error"]["code"], -32602, "{params} -> {response}");
    }
}

#[test]
fn cancelled_requests_stop_and_get_no_response() {
    let mut client = Client::ready(LATEST);
    let started = std::time::Instant::now();
    client.send_line(
        &json!({"jsonrpc": "2.0", "id": "slow-1", "method": "prompts/get",
                "params": {"name": "slow", "arguments": {"ms": "5000"}}})
        .to_string(),
    );
    client.notify(
        "notifications/cancelled",
        json!({"requestId": "slow-1", "reason": "the user gave up"}),
    );
    // Unknown, malformed and repeated cancellations are ignored.
    client.notify("notifications/cancelled", json!({"requestId": 424_242}));
    client.notify("notifications/cancelled", json!({"reason": "no id"}));
    client.notify("notifications/cancelled", json!({"requestId": "slow-1"}));
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
    let (rest, status) = client.finish();
    assert!(status.success());
    assert!(
        rest.iter().all(|m| m["id"] != "slow-1"),
        "a cancelled request was answered: {rest:?}"
    );
    // Its work was dropped: end of input did not wait for it.
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
}

#[test]
fn a_request_that_was_not_cancelled_is_still_answered() {
    let mut client = Client::ready(LATEST);
    client.send_line(
        &json!({"jsonrpc": "2.0", "id": 5, "method": "prompts/get",
                "params": {"name": "slow", "arguments": {"ms": "200"}}})
        .to_string(),
    );
    // A string id "5" is not the integer 5.
    client.notify("notifications/cancelled", json!({"requestId": "5"}));
    let answer = client.read();
    assert_eq!(answer["id"], 5);
    assert_eq!(
        answer["result"]["messages"][0]["content"]["text"],
        "slept 200ms"
    );
}
