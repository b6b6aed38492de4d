//! The floor: the least a Rust stdio server does to answer the benchmark's
//! requests, by hand with std and `serde_json`, on one thread. It writes, byte
//! for byte, what the mcp-prompts server (`stdio-prompts`) writes, and
//! flushes the same way: once no whole request is waiting.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, BufWriter, Write};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct GetParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    arguments: HashMap<Cow<'a, str>, Cow<'a, str>>,
}

#[derive(Deserialize)]
struct CompleteParams<'a> {
    #[serde(borrow)]
    argument: Argument<'a>,
}

#[derive(Deserialize)]
struct Argument<'a> {
    #[serde(borrow)]
    value: Cow<'a, str>,
}

#[derive(Serialize)]
struct GetResult<'a> {
    description: &'a str,
    messages: Vec<PromptMessage<'a>>,
}

#[derive(Serialize)]
struct PromptMessage<'a> {
    role: &'a str,
    content: Text,
}

#[derive(Serialize)]
struct Text {
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
}

#[derive(Serialize)]
struct Completion<'a> {
    completion: Matches<'a>,
}

#[derive(Serialize)]
struct Matches<'a> {
    values: Vec<&'a str>,
    total: usize,
    #[serde(rename = "hasMore")]
    has_more: bool,
}

const INITIALIZE: &str = r#"{"capabilities":{"completions":{},"logging":{},"prompts":{"listChanged":true}},"protocolVersion":"2025-06-18","serverInfo":{"name":"bench","version":"1.0.0"}}"#;

const LIST: &str = r#"{"prompts":[{"name":"code_review","title":"Review code","description":"Review a code snippet","arguments":[{"name":"language","description":"Programming language of the snippet","required":true},{"name":"code","description":"The code to review","required":true},{"name":"focus","description":"What the review should focus on","required":false}]},{"name":"summarize","description":"Summarize a text","arguments":[{"name":"text","description":"The text to summarize","required":true},{"name":"max_words","description":"The most words the summary may use (default: 50)","required":false}]}]}"#;

fn text(role: &'static str, text: String) -> PromptMessage<'static> {
    PromptMessage {
        role,
        content: Text { kind: "text", text },
    }
}

fn get(params: &GetParams<'_>) -> Option<String> {
    let arg = |name: &str| params.arguments.get(name).map(|v| &**v);
    let result = match &*params.name {
        "code_review" => {
            let focus = arg("focus").unwrap_or("general quality");
            GetResult {
                description: "Review a code snippet",
                messages: vec![
                    text("user", format!("I am reviewing {} code.", arg("language")?)),
                    text(
                        "assistant",
                        "I will look at correctness first, then style.".to_owned(),
                    ),
                    text(
                        "user",
                        format!(
                            "Review this code with a focus on {focus}:\n\n{}",
                            arg("code")?
                        ),
                    ),
                ],
            }
        }
        "summarize" => {
            let max_words: u32 = arg("max_words").unwrap_or("50").parse().ok()?;
            GetResult {
                description: "Summarize a text",
                messages: vec![text(
                    "user",
                    format!(
                        "Summarize the following text in at most {max_words} words:\n\n{}",
                        arg("text")?
                    ),
                )],
            }
        }
        _ => return None,
    };
    serde_json::to_string(&result).ok()
}

fn complete(languages: &[String], params: &CompleteParams<'_>) -> Option<String> {
    let prefix = &*params.argument.value;
    let matches: Vec<&str> = languages
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with(prefix))
        .collect();
    let total = matches.len();
    let values = matches.into_iter().take(100).collect();
    serde_json::to_string(&Completion {
        completion: Matches {
            values,
            total,
            has_more: total > 100,
        },
    })
    .ok()
}

fn main() -> io::Result<()> {
    let languages: Vec<String> = (0..10_000).map(|i| format!("lang{i:05}")).collect();
    let mut input = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut line = String::new();
    loop {
        if !input.buffer().contains(&b'\n') {
            out.flush()?;
        }
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        let Ok(request) = serde_json::from_str::<Request<'_>>(&line) else {
            continue;
        };
        let Some(id) = request.id else { continue };
        let params = request.params.map_or("{}", RawValue::get);
        let result = match &*request.method {
            "initialize" => Some(INITIALIZE.to_owned()),
            "ping" => Some("{}".to_owned()),
            "prompts/list" => Some(LIST.to_owned()),
            "prompts/get" => serde_json::from_str(params).ok().and_then(|p| get(&p)),
            "completion/complete" => serde_json::from_str(params)
                .ok()
                .and_then(|p| complete(&languages, &p)),
            _ => None,
        };
        let Some(result) = result else {
            writeln!(
                out,
                r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32602,"message":"invalid request"}}}}"#,
                id.get()
            )?;
            continue;
        };
        writeln!(
            out,
            r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#,
            id.get()
        )?;
    }
    out.flush()
}
