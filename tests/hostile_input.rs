//! Input meant to crash the server or make it balloon, over its real
//! transports: every message still gets its answer, the server keeps
//! serving, and its peak memory stays bounded.

mod http_support;
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

use http_support::{Running, header_value, open_session, post_raw, read_response};
use support::{
    Client, LATEST, failed_start, initialize, initialize_params, peak_rss_mib, rpc, spawn_fixture,
};

/// What the server may reach at its peak, whatever it was sent.
const RSS_BOUND_MIB: f64 = 64.0;

/// Just under the default message limit of 4 MiB.
const NEARLY_4_MIB: usize = 4 * 1024 * 1024 - 64;

/// Line endings that cut a character, hold one that is not ASCII, or are
/// not UTF-8 at all; the last two carry an id to recover.
const TAILS: &[&[u8]] = &[
    "é1}".as_bytes(),
    "€}".as_bytes(),
    "😀\"}".as_bytes(),
    b"\xC3}",
    b"\xE2\x82}",
    b"\xF0\x9F\x98}",
    b"\xC3",
    b"\xFF",
    b"\x80\"}",
    "\",\"id\":\"é\"}".as_bytes(),
    b"\",\"id\":-7}",
];

fn expected_id(tail: &[u8]) -> Value {
    match tail {
        t if t.ends_with("\"é\"}".as_bytes()) => json!("é"),
        t if t.ends_with(b"-7}") => json!(-7),
        _ => Value::Null,
    }
}

#[test]
fn oversized_lines_ending_in_any_bytes_are_answered_and_the_server_goes_on() {
    let mut client = Client::start_with(&[("FIXTURE_MAX_MESSAGE_BYTES", "1000")]);
    client.initialize(LATEST);
    // Fillers of one, two and four bytes put the edges the server keeps
    // at every offset inside a character.
    for filler in ["a", "é", "😀"] {
        for tail in TAILS {
            let mut line = br#"{"x":""#.to_vec();
            line.extend(filler.repeat(5000 / filler.len()).as_bytes());
            line.extend_from_slice(tail);
            client.send_bytes(&line);
            let response = client.read();
            assert_eq!(response["error"]["code"], -32600, "{response}");
            assert_eq!(response["id"], expected_id(tail), "{response}");
            assert_eq!(client.call("ping", json!({}))["result"], json!({}));
        }
    }
}

#[test]
fn the_reported_crash_at_the_default_limit_is_answered() {
    let mut client = Client::ready(LATEST);
    let mut line = br#"{"x":""#.to_vec();
    line.resize(line.len() + 4 * 1024 * 1024, b'a');
    line.extend_from_slice("é1}".as_bytes());
    client.send_bytes(&line);
    assert_eq!(client.read()["error"]["code"], -32600);
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
}

/// A batch of 25-byte items filling a message of nearly 4 MiB.
fn tiny_request_batch() -> String {
    let item = r#"["2.0",1,"prompts/list"]"#;
    let count = NEARLY_4_MIB / (item.len() + 1);
    format!("[{}]", vec![item; count].join(","))
}

#[test]
fn a_4_mib_batch_of_tiny_requests_is_refused_in_bounded_memory() {
    let mut client = Client::ready("2025-03-26");
    for _ in 0..3 {
        let response = client.send_raw(&tiny_request_batch());
        assert_eq!(response["error"]["code"], -32600, "{response}");
        assert_eq!(response["error"]["data"]["limit"], 100);
        assert!(response.get("id").is_none());
    }
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
    let peak = peak_rss_mib(client.pid());
    eprintln!("peak RSS {peak:.1} MiB");
    assert!(peak < RSS_BOUND_MIB, "peak RSS {peak:.1} MiB");
}

fn repeat_request(id: u64, prompt: &str, bytes: usize) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "prompts/get",
           "params": {"name": prompt, "arguments": {"text": "x", "times": bytes.to_string()}}})
}

#[test]
fn batch_items_are_checked_like_messages_and_responses_are_capped() {
    let mut client = Client::start_with(&[("FIXTURE_MAX_BATCH_RESPONSE_BYTES", "20000")]);
    client.initialize("2025-03-26");
    // An array is not a request, inside a batch or not.
    let mixed =
        client.send_raw(r#"[["2.0",1,"prompts/list"],{"jsonrpc":"2.0","id":2,"method":"ping"}]"#);
    assert_eq!(mixed[0]["error"]["code"], -32600, "{mixed}");
    assert_eq!(mixed[1], json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    // Alone it is a batch of three items, none of them a request.
    let alone = client.send_raw(r#"["2.0",1,"prompts/list"]"#);
    let codes: Vec<_> = alone
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["error"]["code"])
        .collect();
    assert_eq!(codes, [-32600; 3], "{alone}");

    // Ten responses of about 6 KB against a budget of 20,000 bytes: three
    // fit, the rest are refused by id and not run. Sync and async prompts
    // count alike.
    let batch: Vec<Value> = (0..10)
        .map(|id| {
            repeat_request(
                id,
                if id % 2 == 0 {
                    "repeat"
                } else {
                    "repeat_later"
                },
                6000,
            )
        })
        .collect();
    let answers = client.send_raw(&Value::Array(batch).to_string());
    let answers = answers.as_array().expect("a batch response");
    let ids: Vec<_> = answers.iter().map(|a| a["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, (0..10).collect::<Vec<_>>(), "in the batch's order");
    let (run, refused): (Vec<_>, Vec<_>) = answers
        .iter()
        .partition(|a| a["result"]["messages"].is_array());
    assert_eq!(run.len(), 3);
    for answer in refused {
        assert_eq!(answer["error"]["code"], -32603);
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("20000 bytes")
        );
    }
    let total: usize = answers.iter().map(|a| a.to_string().len()).sum();
    assert!(total < 20_000 + 10 * 300, "{total} bytes");
}

#[test]
fn errors_repeat_only_a_short_prefix_of_the_input() {
    let mut client = Client::ready(LATEST);
    let huge = "é\n".repeat(300_000);
    let answers = [
        client.call(&huge, json!({})),
        client.get(&huge, json!({})),
        client.get("repeat", json!({"text": "x", "times": huge})),
        client.get("code_review", json!(huge)),
        client.call("prompts/list", json!({"cursor": huge})),
        client.call("logging/setLevel", json!({"level": huge})),
        client.call(
            "completion/complete",
            json!({
            "ref": {"type": "ref/prompt", "name": huge},
            "argument": {"name": "a", "value": ""}}),
        ),
        client.call(
            "completion/complete",
            json!({
            "ref": {"type": huge}, "argument": {"name": "a", "value": ""}}),
        ),
    ];
    for answer in answers {
        let code = answer["error"]["code"].as_i64().unwrap();
        assert!([-32601, -32602].contains(&code), "{answer}");
        let size = answer.to_string().len();
        assert!(
            size < 1000,
            "a {size}-byte error: {}",
            &answer.to_string()[..300]
        );
    }
}

/// Echoed input cannot hide what it says: bidirectional overrides and
/// other invisible format characters come back escaped. An id is echoed
/// exactly, as JSON-RPC needs, and the rest of the error stays short.
#[test]
fn echoes_escape_format_characters_and_keep_ids_exact() {
    let mut client = Client::ready(LATEST);
    let spoofed = "report\u{202E}fdp.exe\u{200B}";
    let answer = client.get(spoofed, json!({}));
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("report\\u{202e}fdp.exe\\u{200b}"),
        "{message}"
    );
    assert!(!message.contains('\u{202E}'), "{message}");

    let id = "i".repeat(1024 * 1024);
    let line = json!({"jsonrpc": "2.0", "id": id, "method": "no/such"}).to_string();
    let answer = client.send_raw(&line);
    assert_eq!(answer["id"], json!(id), "the id comes back exactly");
    assert_eq!(answer["error"]["code"], -32601);
    let size = answer.to_string().len();
    assert!(
        size < id.len() + 400,
        "{} bytes beyond the id",
        size - id.len()
    );
}

/// A per-request revision written with escapes (`\/`, `\u002f`, an
/// escaped `_meta`) is still read as one: the request is served under
/// 2026-07-28, not slipped into the session.
#[test]
fn a_meta_key_written_with_escapes_is_still_read() {
    let mut client = Client::ready(LATEST);
    let caps = r#""io.modelcontextprotocol/clientCapabilities":{}"#;
    for (id, meta) in [
        r#""_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28","#,
        r#""_meta":{"io.modelcontextprotocol\u002fprotocolVersion":"2026-07-28","#,
        r#""\u005fmeta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","#,
    ]
    .into_iter()
    .enumerate()
    {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"prompts/get","params":{{"name":"greet","arguments":{{"name":"a"}},{meta}{caps}}}}}}}"#
        );
        let answer = client.send_raw(&line);
        assert_eq!(
            answer["result"]["resultType"], "complete",
            "{line} -> {answer}"
        );
    }
}

/// A state secret shorter than the key it makes is refused when the
/// server is built: the process says why and exits.
#[test]
fn a_short_request_state_secret_stops_the_server() {
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_fixture-server"));
    server.env("FIXTURE_STATE_SECRET", "too short");
    let stderr = failed_start(server);
    assert!(stderr.contains("it needs at least 32"), "{stderr}");
}

/// A request line for the never-reading client: big responses from sync
/// prompts, async prompts and batches.
fn flood_line(id: u64) -> String {
    const BIG: usize = 256 * 1024;
    match id % 3 {
        0 => repeat_request(id, "repeat", BIG).to_string(),
        1 => repeat_request(id, "repeat_later", BIG).to_string(),
        _ => Value::Array(vec![
            repeat_request(id, "repeat", BIG / 2),
            repeat_request(id + 1_000_000, "repeat_later", BIG / 2),
        ])
        .to_string(),
    }
}

#[test]
fn a_stdio_client_that_stops_reading_gets_back_pressure_and_every_answer() {
    const REQUESTS: u64 = 450; // about 130 MiB of responses
    let mut child = spawn_fixture();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        writeln!(stdin, "{}", initialize("2025-03-26")).unwrap();
        for id in 0..REQUESTS {
            writeln!(stdin, "{}", flood_line(id)).unwrap();
        }
        stdin
    });
    // Nobody reads while the server works through what it can.
    std::thread::sleep(Duration::from_secs(2));
    let mut answered = 0;
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while answered < REQUESTS + 1 {
        line.clear();
        assert!(
            lines.read_line(&mut line).unwrap() > 0,
            "stdout ended early"
        );
        let message: Value = serde_json::from_str(&line).unwrap();
        let ok = |m: &Value| m["result"].is_object();
        match &message {
            Value::Array(items) => assert!(items.iter().all(ok), "{}", &line[..200]),
            single => assert!(ok(single), "{}", &line[..200.min(line.len())]),
        }
        answered += 1;
    }
    let peak = peak_rss_mib(child.id());
    drop(writer.join().unwrap());
    assert!(child.wait().unwrap().success());
    eprintln!("peak RSS {peak:.1} MiB");
    assert!(peak < RSS_BOUND_MIB, "peak RSS {peak:.1} MiB");
}

#[test]
fn http_batches_and_readers_that_never_read_stay_bounded() {
    let server = Running::fixture(&[("FIXTURE_STATELESS", "1")]);
    // Stateless without a version header is 2025-03-26: batches allowed.
    let tiny = tiny_request_batch();
    let refused: Vec<TcpStream> = (0..4)
        .map(|_| post_raw(&server, &[], tiny.as_bytes()))
        .collect();
    for stream in refused {
        let (head, body) = read_response(stream);
        assert!(head.starts_with("http/1.1 400"), "{head}");
        let error: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(error["error"]["code"], -32600, "{body}");
    }
    // Six clients ask for large responses and never read them: each is
    // capped by the batch budget (4 MiB) and held by one connection only.
    let batch: Vec<Value> = (0..100)
        .map(|id| repeat_request(id, "repeat", 256 * 1024))
        .collect();
    let batch = Value::Array(batch).to_string();
    let unread: Vec<TcpStream> = (0..6)
        .map(|_| post_raw(&server, &[], batch.as_bytes()))
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    // The server still answers others.
    let ping = post_raw(
        &server,
        &[("mcp-protocol-version", LATEST)],
        br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    );
    let (head, body) = read_response(ping);
    assert!(head.starts_with("http/1.1 200"), "{head} {body}");
    let peak = peak_rss_mib(server.pid());
    drop(unread);
    eprintln!("peak RSS {peak:.1} MiB");
    assert!(peak < RSS_BOUND_MIB, "peak RSS {peak:.1} MiB");
}

/// Two `Host` headers are refused: a check of the first alone would let
/// the second name any host.
#[test]
fn two_host_headers_are_refused() {
    let server = Running::fixture(&[]);
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let (head, _) = read_response(post_raw(&server, &[("host", "evil.example.com")], ping));
    assert!(head.starts_with("http/1.1 403"), "{head}");
}

#[test]
fn a_flood_of_initialize_cannot_end_a_session_used_in_the_last_minute() {
    let server = Running::fixture(&[("FIXTURE_MAX_SESSIONS", "20")]);
    let init = |id: u64| rpc(id, "initialize", &initialize_params(LATEST));
    let session = open_session(&server, LATEST);
    let (mut kept, mut refused) = (0, 0);
    for id in 1..=200 {
        let (head, body) = read_response(post_raw(&server, &[], init(id).as_bytes()));
        if head.starts_with("http/1.1 200") {
            kept += 1;
        } else {
            assert!(head.starts_with("http/1.1 503"), "{head}");
            let retry: u64 = header_value(&head, "retry-after").unwrap().parse().unwrap();
            assert!((1..=61).contains(&retry), "{head}");
            let error: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(error["error"]["code"], -32603, "{body}");
            refused += 1;
        }
    }
    assert_eq!((kept, refused), (19, 181));
    let ping = br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
    let (head, body) = read_response(post_raw(
        &server,
        &[
            ("mcp-session-id", &session),
            ("mcp-protocol-version", LATEST),
        ],
        ping,
    ));
    assert!(
        head.starts_with("http/1.1 200"),
        "the live session was ended: {head} {body}"
    );
}

/// Opens a connection that sends half a request's headers and stops.
fn half_request(server: &Running) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: appl")
        .unwrap();
    stream
}

/// Whether the server has closed `stream` (a read ends or fails at once).
fn closed_by_server(stream: &mut TcpStream) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut buf = [0; 64];
    match stream.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(err) => err.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

fn ping_over_stateless(server: &Running) -> std::time::Duration {
    let started = std::time::Instant::now();
    let (head, body) = read_response(post_raw(
        server,
        &[("mcp-protocol-version", LATEST)],
        br#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"summarize","arguments":{"text":"t"}}}"#,
    ));
    assert!(head.starts_with("http/1.1 200"), "{head} {body}");
    assert!(body.contains("Summarize"), "{body}");
    started.elapsed()
}

#[test]
fn half_sent_and_idle_connections_are_closed_by_the_header_timeout() {
    let server = Running::fixture(&[
        ("FIXTURE_STATELESS", "1"),
        ("FIXTURE_HEADER_TIMEOUT_MS", "300"),
    ]);
    let mut half = half_request(&server);
    // An idle keep-alive connection, after a whole request and its answer.
    let mut idle = post_raw(
        &server,
        &[("mcp-protocol-version", LATEST)],
        br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    );
    idle.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut answer = [0; 4096];
    assert!(idle.read(&mut answer).unwrap() > 0);
    assert!(!closed_by_server(&mut half), "closed before the timeout");
    std::thread::sleep(Duration::from_millis(600));
    assert!(
        closed_by_server(&mut half),
        "a half-sent request was kept open"
    );
    assert!(
        closed_by_server(&mut idle),
        "an idle connection was kept open"
    );
    ping_over_stateless(&server);
}

#[test]
fn at_the_connection_limit_the_oldest_unused_connection_makes_room() {
    let server = Running::fixture(&[("FIXTURE_STATELESS", "1"), ("FIXTURE_MAX_CONNECTIONS", "4")]);
    let mut halves: Vec<TcpStream> = (0..4).map(|_| half_request(&server)).collect();
    std::thread::sleep(Duration::from_millis(200));
    assert!(ping_over_stateless(&server) < Duration::from_secs(1));
    assert!(
        closed_by_server(&mut halves[0]),
        "the oldest unused connection ends"
    );
    assert!(!closed_by_server(&mut halves[3]), "the newest is kept");
}

#[test]
fn slowloris_under_a_low_file_limit_does_not_lock_out_a_real_client() {
    // 300 half-sent requests against 256 file descriptors: without a way to
    // make room, no descriptor would be left for anyone else.
    let server = Running::fixture_with_fd_limit(&[("FIXTURE_STATELESS", "1")], 256);
    let attackers: Vec<TcpStream> = (0..300).map(|_| half_request(&server)).collect();
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..3 {
        let took = ping_over_stateless(&server);
        assert!(
            took < Duration::from_secs(1),
            "a real client waited {took:?}"
        );
    }
    drop(attackers);
}

#[test]
fn a_body_that_trickles_in_is_answered_408() {
    let server = Running::fixture(&[
        ("FIXTURE_STATELESS", "1"),
        ("FIXTURE_BODY_TIMEOUT_MS", "300"),
    ]);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: 100\r\n\r\n{{\"jsonrpc\"",
        server.addr
    );
    stream.write_all(head.as_bytes()).unwrap();
    let started = std::time::Instant::now();
    let (head, body) = read_response(stream);
    assert!(head.starts_with("http/1.1 408"), "{head} {body}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let error: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(error["error"]["code"], -32600);
    ping_over_stateless(&server);
}

/// 100,000 log messages of about 1 KB (100 MB) for a client that reads none.
const CHATTER: &str = "100000";

#[test]
fn a_stdio_client_that_never_reads_log_messages_keeps_the_server_bounded() {
    let mut child = spawn_fixture();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{}", initialize(LATEST)).unwrap();
    let chat = json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
        "params": {"name": "chatty", "arguments": {"count": CHATTER}}});
    writeln!(stdin, "{chat}").unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let peak = peak_rss_mib(child.id());
    // Reading again, the client finds its answers among what was kept.
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":2,"method":"ping"}}"#).unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut answered = 0;
    while answered < 3 {
        line.clear();
        assert!(lines.read_line(&mut line).unwrap() > 0);
        if line.contains("\"result\"") {
            answered += 1;
        }
    }
    // At the end of input the server writes what it kept, then exits.
    drop(stdin);
    std::io::copy(&mut lines, &mut std::io::sink()).unwrap();
    assert!(child.wait().unwrap().success());
    eprintln!("peak RSS {peak:.1} MiB");
    assert!(peak < RSS_BOUND_MIB, "peak RSS {peak:.1} MiB");
}

#[test]
fn an_event_stream_nobody_reads_keeps_the_server_bounded() {
    let server = Running::fixture(&[]);
    let session = open_session(&server, LATEST);
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LATEST),
    ];
    // The session's event stream, opened and never read.
    let mut stream = TcpStream::connect(server.addr).unwrap();
    write!(
        stream,
        "GET /mcp HTTP/1.1\r\nhost: {}\r\naccept: text/event-stream\r\nmcp-session-id: {session}\r\nmcp-protocol-version: {LATEST}\r\n\r\n",
        server.addr
    )
    .unwrap();
    let chat = json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
        "params": {"name": "chatty", "arguments": {"count": CHATTER}}});
    let (head, body) = read_response(post_raw(&server, &headers, chat.to_string().as_bytes()));
    assert!(head.starts_with("http/1.1 200"), "{head} {body}");
    std::thread::sleep(Duration::from_secs(2));
    let ping = br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let (head, _) = read_response(post_raw(&server, &headers, ping));
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let peak = peak_rss_mib(server.pid());
    drop(stream);
    eprintln!("peak RSS {peak:.1} MiB");
    assert!(peak < RSS_BOUND_MIB, "peak RSS {peak:.1} MiB");
}

#[test]
fn a_request_stream_read_slowly_pauses_its_prompt_and_loses_nothing() {
    let server = Running::fixture(&[]);
    let session = open_session(&server, LATEST);
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LATEST),
    ];
    // 200,000 progress notifications (about 30 MB of events, far more than
    // the sockets buffer) on the request's own stream, which the client
    // leaves unread for a while.
    let steps = json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
        "params": {"name": "steps", "arguments": {"count": "200000"},
                   "_meta": {"progressToken": "t"}}});
    let mut stream = post_raw(&server, &headers, steps.to_string().as_bytes());
    std::thread::sleep(Duration::from_secs(2));
    let peak = peak_rss_mib(server.pid());
    // Read now, the stream has every notification, then the answer.
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let answer = br#""id":1,"result""#;
    let (mut kept, mut tail) = (0, Vec::new());
    let mut buf = vec![0; 1 << 16];
    while !tail.windows(answer.len()).any(|w| w == answer) {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "stream ended without the answer");
        // Only the new bytes and a short overlap (counted before) are
        // searched.
        let needle = b"notifications/progress";
        tail.drain(..tail.len().saturating_sub(64));
        let before = count(&tail, needle);
        tail.extend_from_slice(&buf[..n]);
        kept += count(&tail, needle) - before;
    }
    assert!(String::from_utf8_lossy(&tail).contains("200000 steps"));
    eprintln!("peak RSS {peak:.1} MiB");
    assert_eq!(
        kept, 200_000,
        "every notification arrives, in order, before the answer"
    );
    assert!(peak < RSS_BOUND_MIB, "peak RSS {peak:.1} MiB");
}

/// How many times `needle` occurs in `haystack`.
fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}
