//! `completion/complete` over a fixed list of 20 values and one of 10,000,
//! through the real dispatch path (JSON-RPC text in, text out). The large
//! list holds the same 20 values plus 9,980 that match none of the queries,
//! so both answer each query with the same values: any difference is the
//! cost of the lookup. A completer that scans the 10,000 values itself is
//! measured alongside, to show what the index saves.
//!
//! Run with `cargo bench --bench completion`.

use std::sync::OnceLock;

use mcp_prompts::{CompletionInput, ProtocolVersion, Reply, Server, Session, catalog, prompt};

const LANGUAGES: [&str; 20] = [
    "c",
    "cpp",
    "csharp",
    "elixir",
    "go",
    "haskell",
    "java",
    "javascript",
    "kotlin",
    "lua",
    "ocaml",
    "perl",
    "php",
    "python",
    "ruby",
    "rust",
    "scala",
    "swift",
    "typescript",
    "zig",
];

/// The 20 languages, interleaved with 9,980 values no query matches.
fn large() -> &'static [&'static str] {
    static LIST: OnceLock<Vec<&'static str>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list: Vec<&'static str> = (0..9_980)
            .map(|i| &*Box::leak(format!("q{i:05}").into_boxed_str()))
            .collect();
        for (i, language) in LANGUAGES.iter().enumerate() {
            list.insert(i * 499, language);
        }
        list
    })
}

fn small_list(_: &CompletionInput) -> &'static [&'static str] {
    &LANGUAGES
}

fn large_list(_: &CompletionInput) -> &'static [&'static str] {
    large()
}

/// What a completer without the index does: filter every value.
fn large_scan(input: &CompletionInput) -> Vec<&'static str> {
    input.matching(large().iter().copied()).collect()
}

/// Twenty values
#[prompt]
fn small(#[arg(complete = small_list)] language: String) -> String {
    language
}

/// Ten thousand values
#[prompt]
fn large_prompt(#[arg(complete = large_list)] language: String) -> String {
    language
}

/// Ten thousand values, scanned by the completer
#[prompt]
fn scanned(#[arg(complete = large_scan)] language: String) -> String {
    language
}

const QUERIES: [&str; 5] = ["py", "c", "J", "rust", "zz"];

fn session() -> Session {
    let service = Server::new("bench", "1")
        .catalog(catalog![small, large_prompt, scanned])
        .build()
        .unwrap();
    let session = service.session(None);
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{}","capabilities":{{}},"clientInfo":{{"name":"bench","version":"1"}}}}}}"#,
        ProtocolVersion::LATEST.as_str()
    );
    assert!(matches!(session.handle(&init), Reply::Now(_)));
    session
}

fn request(prompt: &str, typed: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{{"ref":{{"type":"ref/prompt","name":"{prompt}"}},"argument":{{"name":"language","value":"{typed}"}}}}}}"#
    )
}

fn answer(session: &Session, request: &str) -> String {
    match session.handle(request) {
        Reply::Now(text) => text,
        _ => unreachable!("completers here are sync"),
    }
}

/// One request per query, per list; the same answers from each.
fn bench_list(bencher: divan::Bencher, prompt: &str) {
    let session = session();
    let requests: Vec<String> = QUERIES.iter().map(|q| request(prompt, q)).collect();
    let expected: Vec<String> = QUERIES
        .iter()
        .map(|q| answer(&session, &request("small", q)))
        .collect();
    for (request, expected) in requests.iter().zip(&expected) {
        assert_eq!(&answer(&session, request), expected, "{request}");
    }
    bencher.bench_local(|| {
        for request in &requests {
            divan::black_box(answer(&session, divan::black_box(request)));
        }
    });
}

#[divan::bench]
fn list_of_20(bencher: divan::Bencher) {
    bench_list(bencher, "small");
}

#[divan::bench]
fn list_of_10000(bencher: divan::Bencher) {
    bench_list(bencher, "large_prompt");
}

#[divan::bench]
fn scan_of_10000(bencher: divan::Bencher) {
    bench_list(bencher, "scanned");
}

fn main() {
    divan::main();
}
