//! Property tests of the entry points a client's (or a prompt author's)
//! bytes reach: a session fed any message, the argument parsers and a
//! run-time prompt's choices fed any value, the line transport fed any bytes
//! in any chunks, the HTTP endpoint fed any request, the template syntax and
//! prompt files fed any text. They run on stable Rust in the normal suite;
//! the cargo-fuzz targets in `fuzz/` push the same entry points much
//! further.

#[path = "support/chunked.rs"]
mod chunked;

use axum::body::Body;
use axum::http::{Method, Request};
use chunked::Chunked;
use http_body_util::BodyExt;
use mcp_prompts::testing::Client;
use mcp_prompts::{
    DynamicArgument, DynamicPrompt, HttpOptions, Json, PromptArg, Reply, Server, Service, prompt,
};
use proptest::prelude::*;
use serde_json::{Value, json};

#[derive(Debug, PartialEq, PromptArg)]
enum Tone {
    Formal,
    #[prompt_arg(alias = "relaxed")]
    Casual,
}

/// Echoes its arguments
#[prompt]
fn echo(text: String, count: Option<u8>, tone: Option<Tone>) -> String {
    format!("{text} {count:?} {tone:?}")
}

/// Waits, then answers
#[prompt]
async fn later(text: String) -> String {
    tokio::task::yield_now().await;
    text
}

fn service() -> Service {
    Server::new("properties", "1.0")
        .catalog(mcp_prompts::catalog![echo, later])
        .build()
        .unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A JSON-RPC-shaped message: real and bogus methods, ids, params.
fn message() -> impl Strategy<Value = String> {
    let method = prop_oneof![
        Just("initialize".to_owned()),
        Just("ping".to_owned()),
        Just("prompts/list".to_owned()),
        Just("prompts/get".to_owned()),
        Just("completion/complete".to_owned()),
        Just("logging/setLevel".to_owned()),
        Just("notifications/cancelled".to_owned()),
        "[a-z/]{0,12}",
    ];
    let id = prop_oneof![
        Just(Value::Null),
        any::<i64>().prop_map(Value::from),
        "[a-zé]{0,6}".prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
    ];
    let value = prop_oneof![
        "[a-zé0-9 ]{0,12}".prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        Just(Value::Null),
    ];
    let arguments = prop::collection::btree_map("[a-z]{1,6}", value.clone(), 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()));
    let params = (
        prop_oneof![
            Just("echo".to_owned()),
            Just("later".to_owned()),
            "[a-z]{0,6}"
        ],
        arguments,
        value,
    )
        .prop_map(|(name, arguments, other)| {
            json!({"name": name, "arguments": arguments, "protocolVersion": other,
                   "cursor": other, "level": other})
        });
    (method, id, prop::option::of(params), any::<bool>()).prop_map(
        |(method, id, params, as_batch)| {
            let mut message = json!({"jsonrpc": "2.0", "method": method});
            if !id.is_null() {
                message["id"] = id;
            }
            if let Some(params) = params {
                message["params"] = params;
            }
            if as_batch {
                json!([message, {"jsonrpc": "2.0", "id": 1, "method": "ping"}]).to_string()
            } else {
                message.to_string()
            }
        },
    )
}

/// An HTTP request to the endpoint: any method it serves or not, the
/// headers it reads with real and bogus values, a message or any text.
fn http_request() -> impl Strategy<Value = Request<Body>> {
    let method = prop_oneof![
        6 => Just(Method::POST),
        1 => Just(Method::GET),
        1 => Just(Method::DELETE),
        1 => Just(Method::PUT),
    ];
    // What a well-behaved client sends, most of the time.
    let usual = (
        prop::sample::select(vec![
            Some("application/json, text/event-stream"),
            Some("application/json"),
            None,
        ]),
        prop::sample::select(vec![Some("application/json"), None]),
        prop::sample::select(vec![Some("2025-11-25"), Some("2026-07-28"), None]),
    );
    let header = prop_oneof![
        Just("content-type"),
        Just("accept"),
        Just("mcp-session-id"),
        Just("mcp-protocol-version"),
        Just("mcp-method"),
        Just("mcp-name"),
        Just("origin"),
        Just("last-event-id"),
    ];
    let value = prop_oneof![
        Just("application/json".to_owned()),
        Just("application/json, text/event-stream".to_owned()),
        Just("text/event-stream".to_owned()),
        Just("2025-11-25".to_owned()),
        Just("2026-07-28".to_owned()),
        Just("prompts/get".to_owned()),
        Just("echo".to_owned()),
        Just("http://127.0.0.1".to_owned()),
        "[ -~]{0,20}",
    ];
    let headers = prop::collection::vec((header, value), 0..4);
    let body = prop_oneof![4 => message(), 1 => ".{0,100}"];
    (method, usual, headers, body).prop_map(|(method, usual, headers, body)| {
        let mut request = Request::builder()
            .method(method)
            .uri("/mcp")
            .header("host", "127.0.0.1");
        let (accept, content_type, version) = usual;
        for (name, value) in [
            ("accept", accept),
            ("content-type", content_type),
            ("mcp-protocol-version", version),
        ] {
            if let Some(value) = value {
                request = request.header(name, value);
            }
        }
        for (name, value) in headers {
            request = request.header(name, value);
        }
        request.body(Body::from(body)).unwrap()
    })
}

/// A prompt file's TOML front matter: a title, arguments with names the
/// body may use, required flags, defaults and choices, and now and then a
/// line of anything.
fn prompt_file_front_matter() -> impl Strategy<Value = String> {
    let argument = (
        prop::sample::select(vec!["who", "what"]),
        prop::option::of(any::<bool>()),
        prop::option::of(prop::sample::select(vec!["a", "Z"])),
        prop::option::of(prop::collection::vec(
            prop::sample::select(vec!["a", "b", "z"]),
            0..3,
        )),
    )
        .prop_map(|(name, required, default, choices)| {
            let mut lines = vec!["[[arguments]]".to_owned(), format!("name = \"{name}\"")];
            lines.extend(required.map(|required| format!("required = {required}")));
            lines.extend(default.map(|default| format!("default = \"{default}\"")));
            lines.extend(choices.map(|choices| format!("choices = {choices:?}")));
            lines.join("\n") + "\n"
        });
    let junk = prop_oneof![4 => Just(String::new()), 1 => "[ -~]{0,16}\n"];
    (
        prop::option::of("[a-z ]{0,8}"),
        prop::collection::vec(argument, 0..3),
        junk,
    )
        .prop_map(|(title, arguments, junk)| {
            let title = title
                .map(|t| format!("title = \"{t}\"\n"))
                .unwrap_or_default();
            format!("{title}{junk}{}", arguments.concat())
        })
}

/// Choices a run-time prompt accepts case-insensitively, Unicode included.
const CHOICES: [&str; 4] = ["formal", "Straße", "İstanbul", "ǅemal"];

/// A server with one run-time prompt that echoes its choice argument.
fn choice_service() -> Service {
    let prompt = DynamicPrompt::builder("pick")
        .argument(DynamicArgument::new("choice").choices(CHOICES))
        .template("{choice}")
        .build()
        .unwrap();
    Server::new("properties", "1.0")
        .prompts([prompt])
        .build()
        .unwrap()
}

/// A well-formed answer, or none for a notification.
fn check_reply(runtime: &tokio::runtime::Runtime, reply: Reply) {
    if let Some(text) = runtime.block_on(reply.into_message()) {
        let answer: Value = serde_json::from_str(&text).expect("every answer is JSON");
        let all = match answer {
            Value::Array(items) => items,
            one => vec![one],
        };
        for one in all {
            assert_eq!(one["jsonrpc"], "2.0", "{one}");
            assert!(
                one.get("result").is_some() != one.get("error").is_some(),
                "{one}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Any text at all, before and after `initialize`, in either revision
    /// family: an answer that is JSON, never a panic.
    #[test]
    fn sessions_answer_any_text(text in ".{0,200}", structured in message()) {
        let runtime = runtime();
        let _entered = runtime.enter();
        let service = service();
        for version in [None, Some("2025-03-26"), Some("2025-11-25")] {
            let session = service.session(None);
            if let Some(version) = version {
                let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"protocolVersion": version, "capabilities": {},
                               "clientInfo": {"name": "p", "version": "1"}}});
                check_reply(&runtime, session.handle(&init.to_string()));
            }
            check_reply(&runtime, session.handle(&text));
            check_reply(&runtime, session.handle(&structured));
        }
    }

    /// The parsers take any value: a result or a reason, never a panic;
    /// and what they print they read back.
    #[test]
    fn arguments_parse_any_value(value in ".{0,40}", n in any::<i64>(), u in any::<u8>()) {
        let _ = u8::parse_arg(&value);
        let _ = i64::parse_arg(&value);
        let _ = f64::parse_arg(&value);
        let _ = bool::parse_arg(&value);
        let _ = char::parse_arg(&value);
        let _ = Tone::parse_arg(&value);
        let _ = Json::<Vec<u32>>::parse_arg(&value);
        prop_assert_eq!(i64::parse_arg(&n.to_string()), Ok(n));
        prop_assert_eq!(u8::parse_arg(&u.to_string()), Ok(u));
        for tone in [Tone::Formal, Tone::Casual] {
            let text = tone.to_string();
            prop_assert_eq!(Tone::parse_arg(&text.to_uppercase()), Ok(tone));
        }
    }

    /// Requests split into arbitrary chunks, even inside a character, are
    /// each answered once, with their ids.
    #[test]
    fn lines_survive_any_chunking(
        texts in prop::collection::vec("[a-zé😀 ]{0,30}", 1..12),
        cuts in prop::collection::vec(1usize..40, 1..30),
    ) {
        let mut input = Vec::new();
        for (id, text) in texts.iter().enumerate() {
            let name = if id % 2 == 0 { "echo" } else { "later" };
            let line = json!({"jsonrpc": "2.0", "id": id, "method": "prompts/get",
                              "params": {"name": name, "arguments": {"text": text}}});
            input.extend_from_slice(line.to_string().as_bytes());
            input.push(b'\n');
        }
        let mut init = json!({"jsonrpc": "2.0", "id": "init", "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "p", "version": "1"}}})
            .to_string()
            .into_bytes();
        init.push(b'\n');
        init.extend(input);
        let chunks = chunk(&init, &cuts);
        let output = runtime().block_on(async {
            // Large enough for every answer, so the server never waits.
            let (writer, mut reader) = tokio::io::duplex(1 << 24);
            service().serve_io(Chunked(chunks), writer).await.unwrap();
            let mut output = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut reader, &mut output).await.unwrap();
            output
        });
        let mut ids: Vec<u64> = String::from_utf8(output)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .filter_map(|answer| {
                assert!(answer["result"].is_object(), "{answer}");
                answer["id"].as_u64()
            })
            .collect();
        ids.sort_unstable();
        prop_assert_eq!(ids, (0..texts.len() as u64).collect::<Vec<_>>());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any request, with sessions or stateless: a status, and JSON where the
    /// answer says it is JSON, never a panic.
    #[test]
    fn the_http_endpoint_answers_any_request(request in http_request(), stateless in any::<bool>()) {
        let runtime = runtime();
        let options = if stateless { HttpOptions::new().stateless() } else { HttpOptions::new() };
        let router = service().http_router("/mcp", options);
        let (status, json) = runtime.block_on(async {
            let response = tower::ServiceExt::oneshot(router, request).await.unwrap();
            let status = response.status();
            let content_type = response.headers().get("content-type").cloned();
            // An event stream stays open for a GET; read only JSON bodies.
            if content_type.is_none_or(|t| t != "application/json") {
                return (status, None);
            }
            let body = response.into_body().collect().await.unwrap().to_bytes();
            (status, Some(serde_json::from_slice::<Value>(&body)))
        });
        prop_assert!(!status.is_server_error() || status == 503, "{status}");
        if let Some(json) = json {
            prop_assert!(json.is_ok(), "{status}: {json:?}");
        }
    }

    /// A run-time prompt's choice comes out in its listed spelling, whatever
    /// the case it was sent in, or is refused with -32602.
    #[test]
    fn run_time_choices_take_their_listed_spelling(
        value in prop_oneof![".{0,12}", prop::sample::select(CHOICES.to_vec()).prop_map(str::to_owned)],
        upper in any::<bool>(),
    ) {
        let value = if upper { value.to_uppercase() } else { value.to_lowercase() };
        let service = choice_service();
        let client = Client::new(&service);
        let get = json!({"name": "pick", "arguments": {"choice": value}});
        match runtime().block_on(client.request("prompts/get", &get)) {
            Ok(result) => {
                let text = result["messages"][0]["content"]["text"].as_str().unwrap();
                prop_assert!(CHOICES.contains(&text), "{text:?} for {value:?}");
                prop_assert_eq!(text.to_lowercase(), value.trim().to_lowercase());
            }
            Err(error) => prop_assert_eq!(error.code(), -32602, "{:?}", error),
        }
    }

    /// Any template text, sections included: parsed or refused with a line
    /// inside the text, and a run-time prompt accepts exactly the templates
    /// the syntax does.
    #[test]
    fn templates_parse_any_text(text in "([{}]|\\{who\\}|\\{[#^/]who\\}|\\{\\{|[a-z ]{0,4}|\n|--- [a-z]{0,9})+") {
        let checked = mcp_prompts_template::parse_checked(&text, &|name: &str| name == "who");
        if checked.is_ok() {
            prop_assert!(mcp_prompts_template::parse(&text).is_ok());
        }
        if let Err(error) = &checked {
            prop_assert!(error.line >= 1 && error.line <= text.lines().count().max(1) + 1);
        }
        let built = DynamicPrompt::builder("p")
            .argument(DynamicArgument::new("who").optional())
            .template(&text)
            .build();
        prop_assert_eq!(built.is_ok(), checked.is_ok());
    }

    /// Any prompt file: a prompt, or a problem that points inside the file.
    #[test]
    fn prompt_files_parse_any_text(
        front in prompt_file_front_matter(),
        body in prop::collection::vec(prop_oneof![
            6 => "[a-z ]{1,6}",
            2 => Just("{who}".to_owned()),
            2 => Just("{what}".to_owned()),
            1 => Just("\n".to_owned()),
            1 => "[{}]",
        ], 0..8).prop_map(|parts| parts.concat()),
        fenced in prop::bool::weighted(0.9),
    ) {
        let text = if fenced { format!("+++\n{front}+++\n{body}") } else { body };
        if let Err(problem) = DynamicPrompt::from_prompt_file("p", &text)
            && let Some(line) = problem.line
        {
            prop_assert!(line >= 1 && line <= text.lines().count().max(1) + 1, "{problem}");
        }
    }
}

/// `bytes` cut at the given lengths, cycling through them.
fn chunk(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut chunks = Vec::new();
    let mut rest = bytes;
    for &cut in cuts.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (head, tail) = rest.split_at(cut.min(rest.len()));
        chunks.push(head.to_vec());
        rest = tail;
    }
    chunks
}
