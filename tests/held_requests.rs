//! What a connection may make the server hold while its requests wait:
//! requests in flight that are dropped at any point, questions to the
//! client that are never answered, long-lived requests
//! (`subscriptions/listen`, event streams) that never end, and answers
//! it never reads. Each attack runs against a real server process over its
//! real transport.

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

/// `count` clients that each post `request` and read no more of the
/// answer than its start: those whose answer the server holds for them
/// (still connected), and how many were refused as busy.
fn never_read(
    server: &Running,
    headers: &[(&str, &str)],
    request: &str,
    count: usize,
) -> (Vec<TcpStream>, usize) {
    let clients: Vec<TcpStream> = (0..count)
        .map(|_| post_raw(server, headers, request.as_bytes()))
        .collect();
    let (mut held, mut busy) = (Vec::new(), 0);
    for mut client in clients {
        let start = response_start(&mut client);
        if start.contains(r#""result""#) {
            held.push(client);
        } else {
            assert!(
                start.contains("-32603") && start.contains("busy"),
                "{start}"
            );
            busy += 1;
        }
    }
    (held, busy)
}

/// Asserts the server's peak RSS stayed under `bound_mib` and a new client
/// is answered at once.
fn bounded_and_answering(server: &Running, bound_mib: f64) {
    let peak = peak_rss_mib(server.pid());
    eprintln!("peak RSS {peak:.1} MiB");
    assert!(
        peak < bound_mib,
        "peak RSS {peak:.1} MiB, over {bound_mib} MiB"
    );
    let started = Instant::now();
    open_session(server, LATEST);
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(2),
        "initialize after {waited:?}"
    );
}

/// A folder holding one skill, `big`, with a file `data.txt` of `mib`
/// MiB of text.
fn big_skill(name: &str, mib: usize) -> std::path::PathBuf {
    let folder = std::env::temp_dir().join(format!("mcp-prompts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(folder.join("big")).unwrap();
    std::fs::write(
        folder.join("big/SKILL.md"),
        "---\nname: big\ndescription: One large file\n---\nRead `data.txt`.\n",
    )
    .unwrap();
    let line = format!("{}\n", "x".repeat(1023));
    std::fs::write(folder.join("big/data.txt"), line.repeat(mib * 1024)).unwrap();
    folder
}

/// The first bytes of the response on `stream`: its head and the start of
/// its body (its first 512 bytes, or all of a shorter one), read no
/// further.
fn response_start(stream: &mut TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let (mut seen, mut buf) = (Vec::new(), [0; 4096]);
    loop {
        let text = String::from_utf8_lossy(&seen);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = http_support::header_value(&head.to_ascii_lowercase(), "content-length")
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            if body.len() >= length.min(512) {
                return text.into_owned();
            }
        }
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {text}");
        seen.extend_from_slice(&buf[..n]);
    }
}

/// The whole response on `stream`, however large: its head, lowercased,
/// and its body, read to its `content-length`.
fn whole_response(mut stream: TcpStream) -> (String, Vec<u8>) {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let (mut seen, mut buf) = (Vec::new(), [0; 4096]);
    let end = loop {
        if let Some(at) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&seen[..end]).to_ascii_lowercase();
    let length: usize = http_support::header_value(&head, "content-length")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no content-length: {head}"));
    let mut body = seen.split_off(end + 4);
    let mut rest = vec![0; length.saturating_sub(body.len())];
    stream.read_exact(&mut rest).unwrap();
    body.extend_from_slice(&rest);
    (head, body)
}

/// 50 HTTP clients each ask for a 15 MiB skill file and never read the
/// answer. What the server holds for them stays within its budget for
/// answers not yet read (64 MiB here): the answers that fit wait for their
/// clients, every request past the budget is refused at once as busy
/// (-32603), never allocated; a new client is still answered at once; and
/// the budget comes back when the clients that did not read go away.
#[test]
fn unread_skill_reads_stay_within_the_unsent_budget() {
    const FILE_MIB: usize = 15;
    const BUDGET_MIB: usize = 64;
    let folder = big_skill("unsent", FILE_MIB);
    let budget = (BUDGET_MIB << 20).to_string();
    let server = Running::fixture(&[
        ("FIXTURE_SKILLS_DIR", folder.to_str().unwrap()),
        ("FIXTURE_MAX_UNSENT_BYTES", &budget),
    ]);
    let session = open_session(&server, LATEST);
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LATEST),
    ];
    let read = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read",
                      "params": {"uri": "skill://big/data.txt"}})
    .to_string();
    let (waiting, busy) = never_read(&server, &headers, &read, 50);
    eprintln!(
        "{} answers wait for their clients, {busy} refused",
        waiting.len()
    );
    assert!(!waiting.is_empty(), "the budget holds some answers");
    assert!(
        waiting.len() * FILE_MIB <= BUDGET_MIB,
        "{} waiting",
        waiting.len()
    );
    // The budget, the file itself (kept in memory, served from there), and
    // the server's own.
    bounded_and_answering(&server, 64.0 + 15.0 + 40.0);

    // The clients that did not read go away: their answers' bytes come
    // back, and the file can be read again, whole.
    drop(waiting);
    let deadline = Instant::now() + Duration::from_secs(10);
    let (head, body) = loop {
        let (head, body) = whole_response(post_raw(&server, &headers, read.as_bytes()));
        let refused = String::from_utf8_lossy(&body[..body.len().min(200)]).contains("busy");
        if !refused || Instant::now() > deadline {
            break (head, body);
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let start = String::from_utf8_lossy(&body[..200]);
    assert!(start.contains(r#""text":"xxx"#), "{start}");
    assert!(body.len() > FILE_MIB << 20, "{} bytes", body.len());
    let _ = std::fs::remove_dir_all(&folder);
}

/// A prompt's answer counts against the same budget as a skill's file: a
/// megabyte of control characters is six as JSON, and clients that ask
/// for it (sync and async prompts alike) and never read hold at most the
/// budget; past it they are refused as busy, and a new client is answered.
#[test]
fn unread_prompt_answers_stay_within_the_unsent_budget() {
    const BUDGET_MIB: usize = 32;
    let budget = (BUDGET_MIB << 20).to_string();
    let server = Running::fixture(&[("FIXTURE_MAX_UNSENT_BYTES", &budget)]);
    let session = open_session(&server, LATEST);
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LATEST),
    ];
    let control = "\u{1}".repeat(1000);
    let mut held = Vec::new();
    let mut busy = 0;
    for name in ["repeat", "repeat_later"] {
        let get = json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
                         "params": {"name": name, "arguments": {"text": control, "times": "1000"}}})
        .to_string();
        let (waiting, refused) = never_read(&server, &headers, &get, 20);
        held.extend(waiting);
        busy += refused;
    }
    eprintln!(
        "{} answers wait for their clients, {busy} refused",
        held.len()
    );
    // Each answer is about 6 MB: five fit in 32 MiB.
    assert!(!held.is_empty() && held.len() <= 5, "{} held", held.len());
    // The budget; the answers being made when their room is asked for
    // (a prompt's answer is measured once written: up to 8 MiB each as
    // allocated, a few at once, then freed when refused); the server's
    // own. All forty held would be over 250 MiB.
    bounded_and_answering(&server, 32.0 + 32.0 + 40.0);
    drop(held);
}

/// Clients that ask for large answers, never read them and keep their
/// connections open cannot hold the unsent budget for good: once a write
/// has waited the write timeout, the connection is closed and its
/// answer's bytes come back, so other clients are served again.
#[test]
fn a_client_that_never_reads_loses_its_connection_after_the_write_timeout() {
    const FILE_MIB: usize = 15;
    let folder = big_skill("stall", FILE_MIB);
    // Room for two answers, no more.
    let budget = ((2 * FILE_MIB + 1) << 20).to_string();
    let server = Running::fixture(&[
        ("FIXTURE_SKILLS_DIR", folder.to_str().unwrap()),
        ("FIXTURE_MAX_UNSENT_BYTES", &budget),
        ("FIXTURE_WRITE_TIMEOUT_MS", "1000"),
    ]);
    let session = open_session(&server, LATEST);
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LATEST),
    ];
    let read = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read",
                      "params": {"uri": "skill://big/data.txt"}})
    .to_string();
    let mut holders: Vec<TcpStream> = (0..3)
        .map(|_| post_raw(&server, &headers, read.as_bytes()))
        .collect();
    let starts: Vec<String> = holders.iter_mut().map(response_start).collect();
    let held = starts.iter().filter(|s| s.contains(r#""result""#)).count();
    assert_eq!(held, 2, "{starts:?}");
    // The holders stay connected and read nothing more; within the write
    // timeout (and some slack) their connections are closed, and a whole
    // read goes through again.
    let deadline = Instant::now() + Duration::from_secs(20);
    let body = loop {
        let (_, body) = whole_response(post_raw(&server, &headers, read.as_bytes()));
        if body.len() > FILE_MIB << 20 {
            break body;
        }
        let start = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
        assert!(start.contains("busy"), "{start}");
        assert!(
            Instant::now() < deadline,
            "the budget is still held: {start}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(String::from_utf8_lossy(&body[..200]).contains(r#""text":"xxx"#));
    drop(holders);
    let _ = std::fs::remove_dir_all(&folder);
}
