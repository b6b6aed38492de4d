//! stdin and stdout as a client may hand them to the server: pipes,
//! regular files, `/dev/null`; under tokio's multi-threaded runtime and
//! its single-threaded one. Every request is answered either way.

mod support;

use std::collections::HashSet;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use support::{Client, LATEST, initialize, rpc};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture-server");

/// An async prompt that waits `ms` before answering.
fn slow(id: u64, ms: u64) -> String {
    let arguments = json!({"ms": ms.to_string()});
    rpc(
        id,
        "prompts/get",
        &json!({"name": "slow", "arguments": arguments}),
    )
}

/// Request `id`: a sync prompt, an async one that waits, a listing, a ping.
fn request(id: u64) -> String {
    match id % 4 {
        0 => {
            let arguments = json!({"text": id.to_string()});
            rpc(
                id,
                "prompts/get",
                &json!({"name": "summarize", "arguments": arguments}),
            )
        }
        1 => slow(id, 5),
        2 => rpc(id, "prompts/list", &json!({})),
        _ => rpc(id, "ping", &json!({})),
    }
}

/// The ids of `output`'s responses, each checked to be a success.
fn answered(output: &str) -> Vec<Value> {
    output
        .lines()
        .map(|line| {
            let response: Value = serde_json::from_str(line).unwrap();
            assert!(response["result"].is_object(), "{line}");
            response["id"].clone()
        })
        .collect()
}

#[test]
fn stdin_and_stdout_as_regular_files() {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-streams-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("in.jsonl"), dir.join("out.jsonl"));
    let mut lines = vec![initialize(LATEST)];
    lines.extend((0..200).map(request));
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let status = Command::new(FIXTURE)
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(std::fs::File::create(&output).unwrap())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let ids = answered(&std::fs::read_to_string(&output).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(ids.len(), 201, "every request answered once");
    let unique: HashSet<String> = ids.iter().map(Value::to_string).collect();
    assert_eq!(unique.len(), 201);
}

#[test]
fn dev_null_as_stdin_or_stdout() {
    let status = Command::new(FIXTURE)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .unwrap();
    assert!(status.status.success());
    assert!(status.stdout.is_empty());

    let mut child = Command::new(FIXTURE)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = vec![initialize(LATEST)];
    lines.extend((0..50).map(request));
    std::io::Write::write_all(&mut stdin, (lines.join("\n") + "\n").as_bytes()).unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn pipes_under_either_runtime() {
    for env in [&[][..], &[("FIXTURE_CURRENT_THREAD", "1")][..]] {
        let mut client = Client::start_with(env);
        client.initialize(LATEST);
        // A waiting async prompt does not hold up what comes after it.
        client.send_line(&slow(1, 300));
        client.send_line(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
        assert_eq!(client.read()["id"], 2, "{env:?}");
        assert_eq!(client.read()["id"], 1, "{env:?}");
        // A prompt's log message comes before its response.
        let log = client.send_raw(
            r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"whoami"}}"#,
        );
        assert_eq!(log["method"], "notifications/message", "{env:?}");
        assert_eq!(client.read()["id"], 3);
        // And at end of input, whatever is in flight is still answered.
        for id in 10..20 {
            client.send_line(&slow(id, 20));
        }
        let (responses, status) = client.finish();
        assert!(status.success(), "{env:?}");
        let ids: HashSet<u64> = responses.iter().filter_map(|r| r["id"].as_u64()).collect();
        assert_eq!(ids, (10..20).collect(), "{env:?}");
    }
}
