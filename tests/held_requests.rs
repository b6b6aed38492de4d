//! What a connection may make the server hold while its requests wait:
//! requests in flight that are dropped at any point, questions to the
//! client that are never answered, and long-lived requests
//! (`subscriptions/listen`, event streams) that never end. Each attack
//! runs against a real server process over its real transport.

mod http_support;
mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use http_support::{Running, open_session, post_raw, read_response};
use support::{Client, LATEST, peak_rss_mib};

/// A stdio session under the latest handshake revision whose client can
/// show forms.
fn eliciting_session(env: &[(&str, &str)]) -> Client {
    let mut client = Client::start_with(env);
    client.initialize_with(LATEST, json!({"elicitation": {}}));
    client
}

fn get_line(id: u64, name: &str, arguments: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "prompts/get",
           "params": {"name": name, "arguments": arguments}})
    .to_string()
}

fn text_of(response: &Value) -> &str {
    response["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {response}"))
}

/// Reads `count` messages, each either a request to the client or a
/// response; returns them in that order, split.
fn read_split(client: &mut Client, count: usize) -> (Vec<Value>, Vec<Value>) {
    (0..count)
        .map(|_| client.read())
        .partition(|m| m["method"] == "elicitation/create")
}

/// Past the bound on waiting questions, asking does not wait: the prompt
/// hears `Unsupported`, missing arguments are -32602, and an answered
/// question makes room for the next.
#[test]
fn questions_past_the_bound_are_not_asked() {
    let mut client = eliciting_session(&[("FIXTURE_MAX_WAITING", "2")]);
    for id in 1..=3 {
        client.send_line(&get_line(id, "ask_tone", &json!({})));
    }
    let (questions, answers) = read_split(&mut client, 3);
    assert_eq!(questions.len(), 2, "{questions:?} {answers:?}");
    assert_eq!(text_of(&answers[0]), "no tone: Unsupported");
    let refused = client.get("deploy_notes", json!({}));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["missing"], json!(["service"]));
    // One answered: its prompt finishes, and a new question may be asked.
    let reply =
        json!({"jsonrpc": "2.0", "id": questions[0]["id"], "result": {"action": "decline"}});
    client.send_line(&reply.to_string());
    assert_eq!(text_of(&client.read()), "no tone: Declined");
    client.send_line(&get_line(5, "ask_tone", &json!({})));
    assert_eq!(client.read()["method"], "elicitation/create");
}

/// 100 requests that each lack an argument and carry 1 MiB, never
/// answered: 16 wait (the default bound), the rest are refused at once,
/// memory stays bounded, and reading never pauses.
#[test]
fn unanswered_questions_with_large_arguments_stay_bounded() {
    let mut client = eliciting_session(&[]);
    let pad = "p".repeat(1024 * 1024);
    for id in 1..=100 {
        client.send_line(&get_line(id, "deploy_notes", &json!({ "pad": pad })));
    }
    let (questions, refused) = read_split(&mut client, 100);
    assert_eq!(questions.len(), 16);
    assert!(refused.iter().all(|r| r["error"]["code"] == -32602));
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
    let peak = peak_rss_mib(client.pid());
    eprintln!("peak RSS {peak:.1} MiB");
    assert!(peak < 64.0, "peak RSS {peak:.1} MiB");
}

/// A question nobody answers expires: the client is told it was
/// withdrawn, and the prompt sees a decline.
#[test]
fn an_unanswered_question_expires() {
    let mut client = eliciting_session(&[("FIXTURE_QUESTION_TIMEOUT_MS", "300")]);
    client.send_line(&get_line(1, "ask_tone", &json!({})));
    let question = client.read();
    assert_eq!(question["method"], "elicitation/create");
    let withdrawn = client.read();
    assert_eq!(
        withdrawn["method"], "notifications/cancelled",
        "{withdrawn}"
    );
    assert_eq!(withdrawn["params"]["requestId"], question["id"]);
    let answer = client.read();
    assert_eq!(answer["id"], 1);
    assert_eq!(text_of(&answer), "no tone: Declined");
}

fn modern_listen(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
           "params": {"notifications": {"promptsListChanged": true},
                      "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string()
}

/// Listens take no place among the requests in flight: 70 of them on one
/// stdio connection leave it reading (a ping is answered), and those past
/// the bound of 16 are refused.
#[test]
fn listens_on_stdio_do_not_wedge_the_connection() {
    let mut client = Client::start();
    for id in 1..=70 {
        client.send_line(&modern_listen(id));
    }
    let (mut acks, mut refused) = (0, 0);
    for _ in 0..70 {
        let message = client.read();
        if message["method"] == "notifications/subscriptions/acknowledged" {
            acks += 1;
        } else {
            assert_eq!(message["error"]["code"], -32600, "{message}");
            refused += 1;
        }
    }
    assert_eq!((acks, refused), (16, 54));
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
}

fn session_headers(session: &str) -> [(&str, &str); 2] {
    [
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-03-26"),
    ]
}

/// A batch whose first async response fills the budget: the items after
/// it are dropped without being run. Ids of 8 KiB each, so that any entry
/// left behind shows in memory.
fn overflowing_batch(round: usize) -> String {
    let items: Vec<Value> = (0..4)
        .map(|n| {
            json!({"jsonrpc": "2.0", "id": format!("{}{round}-{n}", "i".repeat(8192)),
                   "method": "prompts/get",
                   "params": {"name": "repeat_later",
                              "arguments": {"text": "x", "times": "15000"}}})
        })
        .collect();
    Value::Array(items).to_string()
}

/// Batch items dropped before they ran (the budget full, the client gone)
/// leave nothing in flight: the session still expires when idle, and
/// memory stays flat over 1,000 such batches.
#[test]
fn dropped_batch_items_leave_the_session_free_to_expire() {
    let server = Running::fixture(&[
        ("FIXTURE_MAX_BATCH_RESPONSE_BYTES", "40000"),
        ("FIXTURE_IDLE_MS", "800"),
    ]);
    // 2025-03-26 has batches.
    let session = open_session(&server, "2025-03-26");
    let headers = session_headers(&session);
    let send_batches = |rounds: std::ops::Range<usize>| {
        for round in rounds {
            let (head, body) = read_response(post_raw(
                &server,
                &headers,
                overflowing_batch(round).as_bytes(),
            ));
            assert!(head.starts_with("http/1.1 200"), "{head}");
            let answers: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(answers[0]["result"]["messages"][0]["role"], "user");
            for refused in 1..4 {
                assert_eq!(answers[refused]["error"]["code"], -32603, "not run");
            }
        }
    };
    send_batches(0..100);
    let early = peak_rss_mib(server.pid());
    send_batches(100..1000);
    let late = peak_rss_mib(server.pid());
    eprintln!("peak RSS after 100 batches {early:.1} MiB, after 1,000 {late:.1} MiB");
    assert!(late - early < 4.0, "{early:.1} -> {late:.1} MiB");

    // The client goes away while the first item runs: the rest are dropped.
    let slow_first = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
         "params": {"name": "slow", "arguments": {"ms": "400"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "prompts/get",
         "params": {"name": "repeat_later", "arguments": {"text": "x", "times": "1"}}},
    ]);
    let gone = post_raw(&server, &headers, slow_first.to_string().as_bytes());
    std::thread::sleep(Duration::from_millis(100));
    drop(gone);

    // Idle past the timeout, nothing in flight: the session has ended.
    std::thread::sleep(Duration::from_millis(1500));
    let ping = br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;
    let (head, _) = read_response(post_raw(&server, &headers, ping));
    assert!(head.starts_with("http/1.1 404"), "{head}");
}

/// Opens a stateless `subscriptions/listen` and waits for its
/// acknowledgement; the connection stays open.
fn open_listen(server: &Running, id: u64) -> TcpStream {
    let mut stream = post_raw(
        server,
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "subscriptions/listen"),
        ],
        modern_listen(id).as_bytes(),
    );
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut seen = Vec::new();
    let mut buf = [0; 2048];
    while !String::from_utf8_lossy(&seen).contains("acknowledged") {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    stream
}

/// 1,024 idle listens fill every connection slot of a stateless server; a
/// real client is still answered at once, the oldest listen making room.
#[test]
fn idle_listens_cannot_lock_a_real_client_out() {
    let server = Running::fixture(&[("FIXTURE_STATELESS", "1")]);
    let listens: Vec<TcpStream> = (0..1024).map(|id| open_listen(&server, id)).collect();
    let started = Instant::now();
    let request = br#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"summarize","arguments":{"text":"t"}}}"#;
    let mut stream = post_raw(&server, &[("mcp-protocol-version", "2025-11-25")], request);
    stream.flush().unwrap();
    let (head, body) = read_response(stream);
    assert!(head.starts_with("http/1.1 200"), "{head} {body}");
    assert!(body.contains("Summarize"), "{body}");
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(1), "answered after {waited:?}");
    drop(listens);
}
