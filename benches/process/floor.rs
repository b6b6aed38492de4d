//! The floor: the least a Rust server does to answer the benchmark's
//! requests, by hand with std and `serde_json`. It writes, byte for byte,
//! what the mcp-prompts server (`bench-server`) writes. On stdio it is one
//! thread that flushes the way `bench-server` does (once no whole request is
//! waiting); with `--http ADDR`, a bare axum handler on the same answers.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::sync::OnceLock;

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

fn complete(params: &CompleteParams<'_>) -> Option<String> {
    static LANGUAGES: OnceLock<Vec<String>> = OnceLock::new();
    let languages = LANGUAGES.get_or_init(|| (0..10_000).map(|i| format!("lang{i:05}")).collect());
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

/// The response to one request line; `None` for a notification or a line
/// that is not a request.
fn answer(line: &str) -> Option<String> {
    let request = serde_json::from_str::<Request<'_>>(line).ok()?;
    let id = request.id?;
    let params = request.params.map_or("{}", RawValue::get);
    let result = match &*request.method {
        "initialize" => Some(INITIALIZE.to_owned()),
        "ping" => Some("{}".to_owned()),
        "prompts/list" => Some(LIST.to_owned()),
        "prompts/get" => serde_json::from_str(params).ok().and_then(|p| get(&p)),
        "completion/complete" => serde_json::from_str(params).ok().and_then(|p| complete(&p)),
        _ => None,
    };
    Some(match result {
        Some(result) => format!(r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#, id.get()),
        None => format!(
            r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32602,"message":"invalid request"}}}}"#,
            id.get()
        ),
    })
}

fn serve_stdio() -> io::Result<()> {
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
        if let Some(response) = answer(&line) {
            out.write_all(response.as_bytes())?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()
}

async fn serve_http(addr: &str) -> io::Result<()> {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;

    async fn mcp(body: String) -> axum::response::Response {
        match answer(&body) {
            Some(response) => {
                ([(header::CONTENT_TYPE, "application/json")], response).into_response()
            }
            None => StatusCode::ACCEPTED.into_response(),
        }
    }

    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    let app = axum::Router::new().route("/mcp", axum::routing::post(mcp));
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}

fn main() -> io::Result<()> {
    match std::env::args().skip_while(|a| a != "--http").nth(1) {
        None => serve_stdio(),
        Some(addr) => tokio::runtime::Runtime::new()?.block_on(serve_http(&addr)),
    }
}
