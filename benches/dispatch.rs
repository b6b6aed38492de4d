//! The stdio serving path against the floor: a hand-written `serde_json` loop
//! answering the same requests. Both read the same newline-delimited
//! JSON-RPC bytes from memory and write to memory, in one run, so the ratio
//! is what mcp-prompts costs over the least a Rust server must do.
//!
//! Run with `cargo bench --bench dispatch`.

use mcp_prompts::{Server, Service, catalog, prompt};
use serde_json::{Value, json};

/// A prompt with required arguments
#[prompt(title = "Prompt With Arguments")]
fn test_prompt_with_arguments(
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

#[path = "support/memory.rs"]
mod memory;
use memory::summarize;

const REQUESTS: usize = 1_000;

/// `initialize`, then a mix of `prompts/get` (both prompts), `prompts/list`
/// and `ping`.
fn input() -> Vec<u8> {
    let mut lines = vec![json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
               "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "bench", "version": "1"}}})];
    for i in 1..=REQUESTS {
        lines.push(match i % 4 {
            0 => json!({"jsonrpc": "2.0", "id": i, "method": "prompts/get",
                        "params": {"name": "test_prompt_with_arguments",
                                   "arguments": {"arg1": format!("value {i}"), "arg2": "second"}}}),
            1 => json!({"jsonrpc": "2.0", "id": i, "method": "prompts/get",
                        "params": {"name": "summarize",
                                   "arguments": {"text": "A long text to summarize.", "max_words": "20"}}}),
            2 => json!({"jsonrpc": "2.0", "id": i, "method": "prompts/list"}),
            _ => json!({"jsonrpc": "2.0", "id": i, "method": "ping"}),
        });
    }
    let mut bytes = Vec::new();
    for line in lines {
        serde_json::to_writer(&mut bytes, &line).unwrap();
        bytes.push(b'\n');
    }
    bytes
}

fn service() -> Service {
    Server::new("bench", "1")
        .catalog(catalog![test_prompt_with_arguments, summarize])
        .build()
        .unwrap()
}

/// The floor: parse each line into a `Value`, match the method, build the
/// answer with `json!`, write it. No validation beyond what answering needs.
fn floor(input: &[u8], out: &mut Vec<u8>) {
    for line in input.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let request: Value = serde_json::from_slice(line).unwrap();
        let id = &request["id"];
        let params = &request["params"];
        let result = match request["method"].as_str().unwrap_or_default() {
            "initialize" => json!({"protocolVersion": "2025-06-18",
                "capabilities": {"prompts": {"listChanged": true}},
                "serverInfo": {"name": "bench", "version": "1"}}),
            "prompts/list" => json!({"prompts": [
                {"name": "summarize", "title": "Summarize", "description": "Summarize a text",
                 "arguments": [{"name": "text", "description": "The text to summarize", "required": true},
                               {"name": "max_words", "description": "The most words the summary may use (default: 50)", "required": false}]},
                {"name": "test_prompt_with_arguments", "title": "Prompt With Arguments",
                 "description": "A prompt with required arguments",
                 "arguments": [{"name": "arg1", "description": "First test argument", "required": true},
                               {"name": "arg2", "description": "Second test argument", "required": true}]}]}),
            "prompts/get" => {
                let args = &params["arguments"];
                let text = match params["name"].as_str().unwrap_or_default() {
                    "summarize" => {
                        let words: u32 =
                            args["max_words"].as_str().unwrap_or("50").parse().unwrap();
                        format!(
                            "Summarize the following text in at most {words} words:\n\n{}",
                            args["text"].as_str().unwrap_or_default()
                        )
                    }
                    _ => format!(
                        "Prompt with arguments: arg1='{}', arg2='{}'",
                        args["arg1"].as_str().unwrap_or_default(),
                        args["arg2"].as_str().unwrap_or_default()
                    ),
                };
                json!({"messages": [{"role": "user", "content": {"type": "text", "text": text}}]})
            }
            // `ping`.
            _ => json!({}),
        };
        serde_json::to_writer(
            &mut *out,
            &json!({"jsonrpc": "2.0", "id": id, "result": result}),
        )
        .unwrap();
        out.push(b'\n');
    }
}

#[divan::bench]
fn serde_json_floor(bencher: divan::Bencher) {
    let input = input();
    let mut out = Vec::with_capacity(input.len() * 2);
    floor(&input, &mut out);
    assert_eq!(answers(&out), REQUESTS + 1);
    bencher.bench_local(|| {
        out.clear();
        floor(divan::black_box(&input), &mut out);
    });
}

#[divan::bench]
fn mcp_prompts_stdio_path(bencher: divan::Bencher) {
    let input = input();
    let service = service();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let serve = |input: &[u8]| memory::serve(&service, &runtime, input);
    let out = serve(&input);
    assert_eq!(answers(&out), REQUESTS + 1);
    bencher.bench_local(|| serve(divan::black_box(&input)));
}

/// How many answers (non-empty lines) were written.
fn answers(out: &[u8]) -> usize {
    out.split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .count()
}

fn main() {
    divan::main();
}
