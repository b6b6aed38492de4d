//! Property tests of the entry points a client's bytes reach: a session
//! fed any message, the argument parsers fed any value, and the line
//! transport fed any bytes in any chunks. They run on stable Rust in the
//! normal suite; the cargo-fuzz targets in `fuzz/` push the same entry
//! points much further.

#[path = "support/chunked.rs"]
mod chunked;

use chunked::Chunked;
use mcp_prompts::{Json, PromptArg, Reply, Server, Service, prompt};
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
