//! The prompt registry's costs, in one run against what they compare with:
//!
//! - `prompts/get` of a prompt the registry serves, against the same
//!   prompt file served from a folder (the baseline), and against a
//!   request that chooses its label (`_meta` `mcp-prompts/label`): 1,000
//!   requests over the stdio path, in memory, as `dispatch` runs them.
//! - A label move on 1,000 prompts in a real PostgreSQL: from the start of
//!   the move (`publish --label production` of versions already published
//!   to staging: one transaction) until a server serves the new versions.
//!
//! Run with `cargo bench -p mcp-prompts --bench registry` (PostgreSQL's server installed:
//! Debian's `postgresql`).

#[path = "../tests/registry_support/mod.rs"]
mod registry_support;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use mcp_prompts::registry::Registry;
use mcp_prompts::testing::Client;
use mcp_prompts::{PromptDir, Server, Service};
use serde_json::json;

const REQUESTS: usize = 1_000;

/// A prompt file with two arguments, one with a default.
const REVIEW: &str = "+++\ntitle = \"Review\"\n[[arguments]]\nname = \"code\"\n\
                      [[arguments]]\nname = \"focus\"\nrequired = false\ndefault = \"bugs\"\n+++\n\
                      Review this code for {focus}:\n\n{code}\n";

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The services compared, made once: from a folder, and from an SQLite
/// registry holding the same file (label `production`, and `staging`).
struct Served {
    folder: Service,
    registry: Service,
    _dir: PromptDir,
}

fn served() -> &'static Served {
    static SERVED: OnceLock<Served> = OnceLock::new();
    SERVED.get_or_init(|| {
        let root = temp("get");
        let folder = root.join("prompts");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("review.md"), REVIEW).unwrap();
        let url = format!("sqlite:{}", root.join("reg.db").display());
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let registry = Registry::open(&url).await.unwrap();
            let labels = ["production", "staging"];
            registry
                .publish_folder(&folder, &labels, "bench")
                .await
                .unwrap();
            registry.close().await;
        });
        let (from_folder, prompts) = Server::new("bench", "1").build_live().unwrap();
        let dir = PromptDir::watch(&folder, &prompts).unwrap();
        let (from_registry, _) = Server::new("bench", "1")
            .registry(url, "production")
            .build_live()
            .unwrap();
        Served {
            folder: from_folder,
            registry: from_registry,
            _dir: dir,
        }
    })
}

/// `initialize`, then 1,000 `prompts/get` of `review`, each with `meta`.
fn input(meta: &serde_json::Value) -> Vec<u8> {
    let mut lines = vec![json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
               "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "bench", "version": "1"}}})];
    for i in 1..=REQUESTS {
        let mut params = json!({"name": "review", "arguments": {"code": format!("let x = {i};")}});
        if !meta.is_null() {
            params["_meta"] = meta.clone();
        }
        lines.push(json!({"jsonrpc": "2.0", "id": i, "method": "prompts/get", "params": params}));
    }
    let mut bytes = Vec::new();
    for line in lines {
        serde_json::to_writer(&mut bytes, &line).unwrap();
        bytes.push(b'\n');
    }
    bytes
}

/// Serves `input` on `service` over the stdio path, in memory; the output.
fn serve(runtime: &tokio::runtime::Runtime, service: &Service, input: &[u8]) -> Vec<u8> {
    let (writer, reader) = tokio::io::duplex(1 << 20);
    runtime.block_on(async {
        let read_all = tokio::spawn(async move {
            let mut reader = reader;
            let mut out = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut reader, &mut out)
                .await
                .unwrap();
            out
        });
        service.serve_io(input, writer).await.unwrap();
        read_all.await.unwrap()
    })
}

fn bench_gets(bencher: divan::Bencher, service: &Service, meta: &serde_json::Value) {
    let input = input(meta);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let out = serve(&runtime, service, &input);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text.matches("Review this code for bugs").count(),
        REQUESTS,
        "{text:.400}"
    );
    bencher.bench_local(|| serve(&runtime, service, divan::black_box(&input)));
}

/// The baseline: the prompt file served from a folder.
#[divan::bench]
fn get_1000_from_a_folder(bencher: divan::Bencher) {
    bench_gets(bencher, &served().folder, &serde_json::Value::Null);
}

/// The same file, a registry's version.
#[divan::bench]
fn get_1000_from_the_registry(bencher: divan::Bencher) {
    bench_gets(bencher, &served().registry, &serde_json::Value::Null);
}

/// Each request choosing its label.
#[divan::bench]
fn get_1000_choosing_a_label(bencher: divan::Bencher) {
    let meta = json!({"mcp-prompts/label": "staging"});
    bench_gets(bencher, &served().registry, &meta);
}

/// 1,000 prompt files saying `word`.
fn write_prompts(dir: &Path, word: &str) {
    for n in 0..1_000 {
        let text = format!("+++\n[[arguments]]\nname = \"topic\"\n+++\n{word} {n}: {{topic}}\n");
        std::fs::write(dir.join(format!("p{n:04}.md")), text).unwrap();
    }
}

/// How long after a label move on 1,000 prompts a server on the same
/// PostgreSQL serves it, for each of `rounds` moves.
fn label_moves(rounds: usize) -> Vec<Duration> {
    let pg = registry_support::postgres::Postgres::start();
    let url = pg.url();
    let folder = temp("moves");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let registry = runtime.block_on(Registry::open(&url)).unwrap();
    write_prompts(&folder, "round-0");
    runtime
        .block_on(registry.publish_folder(&folder, &["production"], "bench"))
        .unwrap();
    let (service, _) = Server::new("bench", "1")
        .registry(url, "production")
        .build_live()
        .unwrap();
    assert_eq!(service.prompt_count(), 1_000);
    let client = Client::new(&service);
    let serves = |word: &str| {
        let got = runtime.block_on(client.get(("p0999", [("topic", "t")])));
        got.is_ok_and(|got| got.texts()[0].starts_with(word))
    };
    let mut took = Vec::new();
    for round in 1..=rounds {
        let word = format!("round-{round}");
        // Published to staging first: the move itself is the measure.
        write_prompts(&folder, &word);
        runtime
            .block_on(registry.publish_folder(&folder, &["staging"], "bench"))
            .unwrap();
        assert!(serves(&format!("round-{}", round - 1)));
        let start = Instant::now();
        let moved = runtime
            .block_on(registry.publish_folder(&folder, &["production"], "bench"))
            .unwrap();
        assert!(moved.iter().all(|p| !p.is_new()), "a move, not a publish");
        while !serves(&word) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the move is served"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        took.push(start.elapsed());
    }
    runtime.block_on(registry.close());
    let _ = std::fs::remove_dir_all(&folder);
    took
}

fn main() {
    divan::main();
    let mut took = label_moves(5);
    took.sort();
    println!("\nA label move on 1,000 prompts (PostgreSQL), until a server serves it:");
    println!("| moves | fastest | median | slowest |");
    println!("|---|---|---|---|");
    println!(
        "| {} | {:?} | {:?} | {:?} |",
        took.len(),
        took[0],
        took[took.len() / 2],
        took[took.len() - 1]
    );
}
