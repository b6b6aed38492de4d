//! What a language preference (SEP-2792) costs a request, in one run:
//! the same 1,000 requests (`prompts/get` of two prompts and
//! `prompts/list`) through the real stdio path, from memory to memory,
//! on a server whose prompts have French and German texts (Fluent), sent
//! with no preference, with one the prompts have (`fr-CH, en;q=0.5`) and
//! with one they do not (`ja`, answered in the default); and with no
//! preference to the same server without translations, the path as it
//! was before languages.
//!
//! Run with `cargo bench --bench languages`.

use mcp_prompts::{RequestContext, Server, Service, Translations, catalog, prompt};
use serde_json::json;

/// Review code
#[prompt(title = "Review")]
fn review(
    /// The code to review
    code: String,
    ctx: RequestContext,
) -> String {
    match ctx.language() {
        "fr" => format!("Relis ce code : {code}"),
        "de" => format!("Prüfe diesen Code: {code}"),
        _ => format!("Review this code: {code}"),
    }
}

#[path = "support/memory.rs"]
mod memory;
use memory::{serve, summarize};

const REQUESTS: usize = 1_000;

/// Stands for a `_meta` that names no language.
const CONTROL: &str = "control";

const FRENCH: &str = "review = Relecture\n    .description = Relire du code\n    .arg-code = Le code\n\
    summarize = Résumer\n    .description = Résumer un texte\n    .arg-text = Le texte\n";
const GERMAN: &str =
    "review = Durchsicht\n    .description = Code prüfen\n    .arg-code = Der Code\n";

/// `initialize`, then `prompts/get` of both prompts and `prompts/list`,
/// each with `preference` in `_meta` if one is given.
fn input(preference: Option<&str>) -> Vec<u8> {
    let mut lines = vec![json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
               "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "bench", "version": "1"}}})];
    for i in 1..=REQUESTS {
        let mut line = match i % 3 {
            0 => json!({"jsonrpc": "2.0", "id": i, "method": "prompts/get",
                        "params": {"name": "review", "arguments": {"code": format!("x = {i}")}}}),
            1 => json!({"jsonrpc": "2.0", "id": i, "method": "prompts/get",
                        "params": {"name": "summarize",
                                   "arguments": {"text": "A long text to summarize.", "max_words": "20"}}}),
            _ => json!({"jsonrpc": "2.0", "id": i, "method": "prompts/list", "params": {}}),
        };
        match preference {
            // A `_meta` as long as the French preference's, naming no
            // language: what reading the bytes costs, apart.
            Some(CONTROL) => {
                line["params"]["_meta"] =
                    json!({"com.example.trace/spanContext": "0123456789abcdef"});
            }
            Some(preference) => {
                line["params"]["_meta"] =
                    json!({"io.modelcontextprotocol/acceptLanguage": preference});
            }
            None => {}
        }
        lines.push(line);
    }
    let mut bytes = Vec::new();
    for line in lines {
        serde_json::to_writer(&mut bytes, &line).unwrap();
        bytes.push(b'\n');
    }
    bytes
}

fn service(translated: bool) -> Service {
    let server = Server::new("bench", "1").catalog(catalog![review, summarize]);
    let server = if translated {
        server.translations(
            Translations::new()
                .add("fr", "fr.ftl", FRENCH)
                .add("de", "de.ftl", GERMAN),
        )
    } else {
        server
    };
    server.build().unwrap()
}

fn bench(bencher: divan::Bencher, translated: bool, preference: Option<&str>, expected: &str) {
    let input = input(preference);
    let service = service(translated);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let out = serve(&service, &runtime, &input);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), REQUESTS + 1);
    assert!(text.contains(expected), "{expected}");
    bencher.bench_local(|| serve(&service, &runtime, divan::black_box(&input)));
}

/// The path as it was: no translations, no preference.
#[divan::bench]
fn untranslated_no_preference(bencher: divan::Bencher) {
    bench(bencher, false, None, "Review this code: x = 3");
}

#[divan::bench]
fn translated_no_preference(bencher: divan::Bencher) {
    bench(bencher, true, None, "Review this code: x = 3");
}

/// A `_meta` of the same length as the French preference's, naming no
/// language.
#[divan::bench]
fn translated_other_meta_same_length(bencher: divan::Bencher) {
    bench(bencher, true, Some(CONTROL), "Review this code: x = 3");
}

#[divan::bench]
fn translated_preferring_french(bencher: divan::Bencher) {
    bench(
        bencher,
        true,
        Some("fr-CH, en;q=0.5"),
        "Relis ce code : x = 3",
    );
}

#[divan::bench]
fn translated_preferring_japanese(bencher: divan::Bencher) {
    bench(
        bencher,
        true,
        Some("ja"),
        "\"io.modelcontextprotocol/contentLanguage\":\"en\"",
    );
}

fn main() {
    divan::main();
}
