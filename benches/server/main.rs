//! The server the process benchmark measures: written the way the guide shows
//! it, with two prompts and a 10,000-value completion list. Serves stdio,
//! or Streamable HTTP with `--http ADDR`. Built with feature `otel`, it
//! exports traces and metrics when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.

use std::sync::OnceLock;

use mcp_prompts::{CompletionInput, Message, Server, prompt};

/// Ten thousand language names, `lang00000` to `lang09999`.
fn languages(_: &CompletionInput) -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        (0..10_000)
            .map(|i| &*Box::leak(format!("lang{i:05}").into_boxed_str()))
            .collect()
    })
}

/// Review a code snippet
#[prompt(title = "Review code")]
#[allow(clippy::unused_async)] // async as in the guide, where a real prompt would await
async fn code_review(
    /// Programming language of the snippet
    #[arg(complete = languages)]
    language: String,
    /// The code to review
    code: String,
    /// What the review should focus on
    focus: Option<String>,
) -> Vec<Message> {
    let focus = focus.as_deref().unwrap_or("general quality");
    vec![
        Message::user(format!("I am reviewing {language} code.")),
        Message::assistant("I will look at correctness first, then style."),
        Message::user(format!(
            "Review this code with a focus on {focus}:\n\n{code}"
        )),
    ]
}

/// Summarize a text
#[prompt]
fn summarize(
    /// The text to summarize
    text: String,
    /// The most words the summary may use
    #[arg(default = 50)]
    max_words: u32,
) -> String {
    format!("Summarize the following text in at most {max_words} words:\n\n{text}")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    // With an OTLP endpoint (the benchmark's export-on rows), logging and
    // export as the guide sets them up; without, no subscriber at all.
    #[cfg(feature = "otel")]
    let _otel = match std::env::var_os("OTEL_EXPORTER_OTLP_ENDPOINT") {
        Some(_) => Some(mcp_prompts::otel::init("bench", "warn").map_err(std::io::Error::other)?),
        None => None,
    };
    let server = Server::new("bench", "1.0.0");
    let Some(addr) = std::env::args().skip_while(|a| a != "--http").nth(1) else {
        return server.serve_stdio().await;
    };
    let service = server.build().map_err(std::io::Error::other)?;
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let addr = listener.local_addr()?;
    eprintln!("listening on http://{addr}/mcp");
    let mut options = mcp_prompts::HttpOptions::for_addr(addr);
    if std::env::args().any(|a| a == "--stateless") {
        options = options.stateless();
    }
    service
        .serve_http_on(listener, options, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
