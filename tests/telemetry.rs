//! What an operator sees of a server: a log line per request on every
//! route (stdio and HTTP, both eras, and inside rmcp), refusals with their
//! reason (401, a hidden prompt), never an argument value or a token; the
//! OpenTelemetry spans and metrics a real OTLP/HTTP receiver decodes
//! (tests/clients/python/otel.py, whose client sends its trace context in
//! `_meta`); and a shutdown, at SIGTERM or the end of stdin, that finishes
//! what is in flight and flushes.

// Call sites read better passing `json!` values by value.
#![allow(clippy::needless_pass_by_value)]

mod auth_support;
mod http_support;
mod support;

use std::collections::BTreeMap;
use std::process::Command;
use std::time::{Duration, Instant};

use hyper::StatusCode;
use serde_json::{Value, json};

use auth_support::{Issuer, SigningKey, post, token};
use http_support::{Running, example_binary, post_modern, python_script, showcase_binary};
use support::{Client, LATEST, initialize, modern};

/// An argument value: it must appear in no line at any level.
const SECRET: &str = "fn secret_value_4711() {}";

/// One line of the `mcp_prompts::request` target: its message (`request`,
/// `refused`) and its fields, unquoted.
#[derive(Debug)]
struct Line {
    message: String,
    fields: BTreeMap<String, String>,
}

impl Line {
    fn get(&self, field: &str) -> Option<&str> {
        self.fields.get(field).map(String::as_str)
    }
}

/// The request lines of a log written by the default `tracing` format.
fn request_lines(log: &str) -> Vec<Line> {
    log.lines()
        .filter_map(|line| line.split_once(" mcp_prompts::request: "))
        .map(|(_, rest)| parse_line(rest))
        .collect()
}

/// `message key=value key="quoted \"value\""...`.
fn parse_line(text: &str) -> Line {
    let (message, mut rest) = text.split_once(' ').unwrap_or((text, ""));
    let mut fields = BTreeMap::new();
    while let Some((key, after)) = rest.split_once('=') {
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((at, c)) = chars.next() {
                match c {
                    '\\' => value.extend(chars.next().map(|(_, c)| c)),
                    '"' => {
                        end = at + 1;
                        break;
                    }
                    c => value.push(c),
                }
            }
            (value, &quoted[end..])
        } else {
            let (value, next) = after.split_once(' ').unwrap_or((after, ""));
            (value.to_owned(), next)
        };
        fields.insert(key.trim().to_owned(), value);
        rest = next.trim_start();
    }
    Line {
        message: message.to_owned(),
        fields,
    }
}

/// Waits (up to 10 s: stderr is read on its own thread) until `log()`
/// holds `count` request lines; those lines.
fn wait_for_lines(log: impl Fn() -> String, count: usize) -> Vec<Line> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let lines = request_lines(&log());
        if lines.len() >= count || Instant::now() > deadline {
            return lines;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The line for request `method` about `name`, the `nth` such (from 0).
fn line_for<'a>(lines: &'a [Line], method: &str, name: &str, nth: usize) -> &'a Line {
    lines
        .iter()
        .filter(|l| l.get("method") == Some(method) && l.get("name") == Some(name))
        .nth(nth)
        .unwrap_or_else(|| panic!("no line {nth} for {method} {name}: {lines:#?}"))
}

/// The fields README's logging section lists for a `request` line, and
/// its sample line.
fn documented() -> (Vec<String>, String) {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## Logging, traces and metrics")
        .nth(1)
        .expect("README has a logging section");
    let table = section
        .split("| field | value |")
        .nth(1)
        .expect("a field table");
    let fields = table
        .lines()
        .skip(2)
        .take_while(|row| row.starts_with('|'))
        .map(|row| {
            row.split('`')
                .nth(1)
                .expect("a field in backticks")
                .to_owned()
        })
        .collect();
    let sample = section
        .lines()
        .find(|line| line.contains(" mcp_prompts::request: "))
        .expect("a sample line")
        .to_owned();
    (fields, sample)
}

/// Every field of `lines`' `request` lines is one README lists; those
/// fields.
fn assert_documented(lines: &[Line]) -> std::collections::BTreeSet<String> {
    let (fields, _) = documented();
    let seen: std::collections::BTreeSet<String> = lines
        .iter()
        .filter(|l| l.message == "request")
        .flat_map(|l| l.fields.keys().cloned())
        .collect();
    for field in &seen {
        assert!(
            fields.contains(field),
            "README does not list `{field}`: {fields:?}"
        );
    }
    seen
}

#[test]
fn readme_sample_line_is_one_the_server_writes() {
    let (fields, sample) = documented();
    let sample = request_lines(&format!("x {sample}"));
    assert_eq!(sample.len(), 1);
    assert_eq!(sample[0].message, "request");
    for field in sample[0].fields.keys() {
        assert!(fields.contains(field), "{field}");
    }
}

fn showcase_logging() -> Command {
    let mut command = Command::new(showcase_binary());
    command.env("RUST_LOG", "mcp_prompts=info");
    command
}

#[test]
fn every_request_on_stdio_is_a_line_in_both_eras() {
    let mut client = Client::start_program(showcase_logging());
    client.initialize(LATEST);
    let code = json!({"code": SECRET, "language": "rust"});
    assert!(client.get("code_review", code.clone())["result"].is_object());
    let unknown = client.get("no\u{1b}[31msuch", json!({}));
    assert_eq!(unknown["error"]["code"], -32602);
    let stateless = client.call(
        "prompts/get",
        modern(json!({"name": "code_review", "arguments": code}), json!({})),
    );
    assert!(stateless["result"].is_object(), "{stateless}");
    // A value the argument's type refuses is quoted back to the client,
    // never into the log.
    let bad = client.get("greet", json!({"name": "n", "tone": SECRET}));
    assert_eq!(bad["error"]["code"], -32602);
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("secret_value"),
        "{bad}"
    );
    let made_up = client.call("made/up\u{1b}", json!({}));
    assert_eq!(made_up["error"]["code"], -32601);
    let parse_error = client.send_raw("{not json");
    assert_eq!(parse_error["error"]["code"], -32700);
    let uri = "skill://showcase-guide/SKILL.md";
    assert!(client.call("resources/read", json!({"uri": uri}))["result"].is_object());
    let lines = wait_for_lines(|| client.log(), 8);
    let bad_value = line_for(&lines, "prompts/get", "greet", 0);
    assert_eq!(
        bad_value.get("reason"),
        Some("invalid value for argument `tone`")
    );
    let unknown_method = lines
        .iter()
        .find(|l| l.get("code") == Some("-32601"))
        .expect("a line for the made-up method");
    assert_eq!(unknown_method.get("method"), Some("made/up\\u{1b}"));
    let read = lines
        .iter()
        .find(|l| l.get("uri") == Some(uri))
        .expect("a line naming the URI");
    assert_eq!(read.get("method"), Some("resources/read"));
    assert!(assert_documented(&lines).contains("uri"));
    let log = client.log();

    let initialize = lines
        .iter()
        .find(|l| l.get("method") == Some("initialize"))
        .expect("a line for initialize");
    assert_eq!(initialize.get("outcome"), Some("ok"));
    for nth in [0, 1] {
        let ok = line_for(&lines, "prompts/get", "code_review", nth);
        assert_eq!(ok.message, "request");
        assert_eq!(ok.get("outcome"), Some("ok"), "{ok:?}");
        assert!(ok.get("duration_ms").unwrap().parse::<f64>().unwrap() >= 0.0);
        // No HTTP on stdio, and no caller proved anything.
        assert_eq!(ok.get("status"), None);
        assert_eq!(ok.get("subject"), None);
    }
    // A client's name is escaped: the line stays one line, with no escape
    // sequence reaching the terminal.
    let failed = line_for(&lines, "prompts/get", "no\\u{1b}[31msuch", 0);
    assert_eq!(failed.get("outcome"), Some("error"));
    assert_eq!(failed.get("code"), Some("-32602"));
    assert!(
        failed.get("reason").unwrap().starts_with("Unknown prompt"),
        "{failed:?}"
    );
    assert!(!log.contains('\u{1b}'), "{log}");
    let refused = lines
        .iter()
        .find(|l| l.message == "refused")
        .expect("a refused line");
    assert_eq!(refused.get("code"), Some("-32700"));
    assert!(
        !log.contains(SECRET),
        "an argument value was logged:\n{log}"
    );
}

#[test]
fn a_prompt_tools_error_result_is_a_tool_error_line() {
    // Told from the typed result the server wrote, never read back from
    // its text: an `isError` result is `tool_error`, a result `ok`.
    let mut command = showcase_logging();
    command.arg("--prompts-as-tools");
    let mut client = Client::start_program(command);
    client.initialize(LATEST);
    let call = |name: &str| json!({"name": "get_prompt", "arguments": {"name": name}});
    let failed = client.call("tools/call", call("no_such_prompt"));
    assert_eq!(failed["result"]["isError"], true, "{failed}");
    let listed = client.call(
        "tools/call",
        json!({"name": "list_prompts", "arguments": {}}),
    );
    assert!(listed["result"].get("isError").is_none(), "{listed}");
    let lines = wait_for_lines(|| client.log(), 3);
    let tool_lines: Vec<&Line> = lines
        .iter()
        .filter(|l| l.get("method") == Some("tools/call"))
        .collect();
    let outcome = |name: &str| {
        tool_lines
            .iter()
            .find(|l| l.get("name") == Some(name))
            .unwrap_or_else(|| panic!("a line for the tool {name}: {tool_lines:?}"))
            .get("outcome")
    };
    assert_eq!(outcome("get_prompt"), Some("tool_error"));
    assert_eq!(outcome("list_prompts"), Some("ok"));
}

#[test]
fn with_rust_log_at_warn_no_request_is_logged_and_trace_logs_no_argument_value() {
    let mut quiet = Client::start_program(Command::new(showcase_binary()));
    quiet.initialize(LATEST);
    quiet.get("code_review", json!({"code": SECRET, "language": "rust"}));
    let log = quiet.log();
    let (_, status) = quiet.finish();
    assert!(status.success());
    assert!(request_lines(&log).is_empty(), "{log}");
    // Everything at every level: still never an argument value.
    let mut command = Command::new(showcase_binary());
    command.env("RUST_LOG", "trace");
    let mut loud = Client::start_program(command);
    loud.initialize(LATEST);
    loud.get("code_review", json!({"code": SECRET, "language": "rust"}));
    let lines = wait_for_lines(|| loud.log(), 2);
    assert!(!lines.is_empty());
    assert!(!loud.log().contains(SECRET), "{}", loud.log());
}

fn rpc(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[tokio::test]
async fn every_request_over_http_is_a_line_with_its_status_and_caller_in_both_eras() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]);
    let mut command = Command::new(showcase_binary());
    command
        .args(["--http", "127.0.0.1:0", "--auth-issuer", &issuer.url])
        .env("RUST_LOG", "mcp_prompts=info");
    let server = Running::program(command);
    let ann = token(&issuer, &key, &server, "ann", "prompts");

    // Refused before any handler: no token, and a token that is not one.
    let init: Value = serde_json::from_str(&initialize(LATEST)).unwrap();
    let refused = post(&server, None, None, init.clone()).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let forged = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJtYWxsb3J5In0.c2VjcmV0LXNpZ25hdHVyZQ";
    let refused = post(&server, Some(forged), None, init.clone()).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);

    // A session: the prompt, a -32602, and a prompt hidden from ann (it
    // needs the `deploy` scope), which she is told is unknown.
    let opened = post(&server, Some(&ann), None, init).await;
    assert_eq!(opened.status, StatusCode::OK);
    let session = opened.session.expect("a session");
    let code = json!({"code": SECRET, "language": "rust"});
    let get = rpc(
        2,
        "prompts/get",
        json!({"name": "code_review", "arguments": code}),
    );
    let ok = post(&server, Some(&ann), Some(&session), get).await.body;
    assert!(ok["result"].is_object(), "{ok}");
    let hidden = rpc(
        3,
        "prompts/get",
        json!({"name": "deploy_notes", "arguments": {}}),
    );
    let hidden = post(&server, Some(&ann), Some(&session), hidden).await.body;
    assert_eq!(hidden["error"]["code"], -32602, "{hidden}");
    let unknown = rpc(4, "prompts/get", json!({"name": "nope"}));
    post(&server, Some(&ann), Some(&session), unknown).await;

    // Stateless (2026-07-28).
    let bearer = format!("Bearer {ann}");
    let stateless = rpc(
        5,
        "prompts/get",
        modern(json!({"name": "code_review", "arguments": code}), json!({})),
    );
    let (status, modern_ok) = post_modern(
        &server,
        &stateless,
        &[("authorization", &bearer), ("mcp-name", "code_review")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{modern_ok}");

    let lines = wait_for_lines(|| server.stderr(), 7);
    let log = server.stderr();
    let refusals: Vec<&Line> = lines.iter().filter(|l| l.message == "refused").collect();
    assert_eq!(refusals.len(), 2, "{lines:#?}");
    for refusal in &refusals {
        assert_eq!(refusal.get("status"), Some("401"), "{refusal:?}");
        assert!(
            !refusal.get("reason").unwrap_or_default().is_empty(),
            "{refusal:?}"
        );
    }
    assert!(
        !log.contains(forged) && !log.contains(&ann),
        "a token was logged:\n{log}"
    );

    let initialized = lines
        .iter()
        .find(|l| l.get("method") == Some("initialize"))
        .unwrap();
    assert_eq!(initialized.get("status"), Some("200"));
    assert_eq!(initialized.get("subject"), Some("ann"));
    for nth in [0, 1] {
        let ok = line_for(&lines, "prompts/get", "code_review", nth);
        assert_eq!(ok.get("outcome"), Some("ok"), "{ok:?}");
        assert_eq!(ok.get("status"), Some("200"), "{ok:?}");
        assert_eq!(ok.get("subject"), Some("ann"), "{ok:?}");
    }
    let hidden = line_for(&lines, "prompts/get", "deploy_notes", 0);
    assert_eq!(hidden.get("code"), Some("-32602"));
    assert_eq!(
        hidden.get("reason"),
        Some("hidden from this caller"),
        "{hidden:?}"
    );
    let unknown = line_for(&lines, "prompts/get", "nope", 0);
    assert!(
        unknown.get("reason").unwrap().starts_with("Unknown prompt"),
        "{unknown:?}"
    );
    assert!(
        !log.contains(SECRET),
        "an argument value was logged:\n{log}"
    );
    // Every field README lists shows up (a URI on stdio, above).
    let seen = assert_documented(&lines);
    for field in documented().0.into_iter().filter(|f| f != "uri") {
        assert!(
            seen.contains(&field),
            "no line carries `{field}`: {lines:#?}"
        );
    }
}

#[test]
fn every_request_inside_rmcp_is_a_line() {
    let mut command = Command::new(example_binary("with_rmcp"));
    command.env("RUST_LOG", "mcp_prompts=info");
    let mut client = Client::start_program(command);
    client.initialize(LATEST);
    client.notify("notifications/initialized", json!({}));
    let code = json!({"code": SECRET, "language": "rust"});
    assert!(client.get("code_review", code)["result"].is_object());
    assert!(client.get("nope", json!({}))["error"].is_object());
    client.call("prompts/list", json!({}));
    let lines = wait_for_lines(|| client.log(), 3);
    let ok = line_for(&lines, "prompts/get", "code_review", 0);
    assert_eq!(ok.get("outcome"), Some("ok"), "{ok:?}");
    let unknown = line_for(&lines, "prompts/get", "nope", 0);
    assert_eq!(unknown.get("code"), Some("-32602"), "{unknown:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.get("method") == Some("prompts/list"))
    );
    assert!(!client.log().contains(SECRET));
}

#[test]
fn sigterm_on_stdio_answers_what_is_in_flight_and_exits_0() {
    let mut client = Client::start_with(&[]);
    client.initialize(LATEST);
    client.send_line(
        &rpc(
            7,
            "prompts/get",
            json!({"name": "slow", "arguments": {"ms": "700"}}),
        )
        .to_string(),
    );
    std::thread::sleep(Duration::from_millis(200));
    let status = Command::new("kill")
        .args(["-TERM", &client.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (responses, status) = client.finish();
    assert!(status.success(), "{status:?}");
    let answered = responses
        .iter()
        .find(|r| r["id"] == 7)
        .expect("the slow request's answer");
    assert!(answered["result"].is_object(), "{answered}");
}

#[test]
fn sigterm_stops_the_showcase_on_stdio_with_exit_0() {
    let mut client = Client::start_program(Command::new(showcase_binary()));
    client.initialize(LATEST);
    let status = Command::new("kill")
        .args(["-TERM", &client.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (_, status) = client.finish();
    assert!(status.success(), "{status:?}");
}

#[test]
fn an_otlp_protocol_this_build_lacks_stops_the_start() {
    let mut command = Command::new(showcase_binary());
    command
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
    let said = support::failed_start(command);
    assert!(
        said.contains("grpc") && said.contains("http/protobuf"),
        "{said}"
    );
}

fn assert_otel_script(route: &str) {
    assert_otel_script_of(&showcase_binary(), route);
}

fn assert_otel_script_of(binary: &std::path::Path, route: &str) {
    let binary = binary.display().to_string();
    let output = python_script("python", "otel.py", &[&binary, route]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains(" passed, 0 failed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn an_otlp_receiver_gets_the_spans_and_metrics_of_stdio() {
    assert_otel_script("stdio");
}

#[test]
fn an_otlp_receiver_gets_the_spans_and_metrics_of_http_sessions_and_stateless_requests() {
    assert_otel_script("http");
}

#[test]
fn traces_alone_are_flushed_at_sigterm_with_what_http_tells() {
    assert_otel_script("traces");
}

#[test]
fn a_mebibyte_method_uri_or_id_exports_spans_under_4_kib() {
    assert_otel_script("hostile");
}

#[test]
fn nothing_is_sent_without_an_endpoint() {
    assert_otel_script("silent");
}

/// Inside rmcp: the handler's own tool calls get the conventions' span,
/// and rmcp's internal spans are not exported.
#[test]
fn inside_rmcp_a_tool_call_has_its_span_and_rmcp_s_own_are_left_out() {
    assert_otel_script_of(&example_binary("with_rmcp"), "rmcp");
}
