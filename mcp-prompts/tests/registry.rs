//! The prompt registry against real databases: SQLite in a temporary
//! folder, and a real PostgreSQL started for the test. The `mcp-prompts`
//! binary publishes, moves labels and serves, as a team's pipeline runs
//! it; clients talk to the servers over stdio and HTTP, replicas behind
//! nginx.
// The shared helpers take JSON by value, as the tests write it.
#![allow(clippy::needless_pass_by_value)]

mod registry_support;
mod served;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use registry_support::http::{self, post};
use registry_support::nginx::Nginx;
use registry_support::postgres::Postgres;
use serde_json::{Value, json};
use served::Served;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-prompts");

/// A fresh, empty folder.
fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-prompts-registry-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `review.md` in `dir`, saying `text` about `{code}`.
fn review(dir: &Path, text: &str) {
    let file =
        format!("+++\ntitle = \"Review\"\n[[arguments]]\nname = \"code\"\n+++\n{text} {{code}}\n");
    std::fs::write(dir.join("review.md"), file).unwrap();
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("USER", "tester")
        .output()
        .expect("the binary runs")
}

fn out(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn err(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn publish(dir: &Path, url: &str, labels: &[&str]) -> Output {
    let mut args = vec!["publish", dir.to_str().unwrap(), "--registry", url];
    for label in labels {
        args.extend(["--label", label]);
    }
    run(&args)
}

#[test]
fn publishing_versions_changed_prompts_only_and_labels_move_between_them() {
    let dir = fresh("publish");
    let url = format!("sqlite:{}", dir.join("reg.db").display());
    let prompts = dir.join("prompts");
    std::fs::create_dir_all(&prompts).unwrap();
    review(&prompts, "Review this:");
    std::fs::write(prompts.join("_persona.prompt"), "You are kind.").unwrap();
    let explain =
        "---\ninput:\n  schema:\n    topic: string\n---\n{{> persona}} Explain {{topic}}.\n";
    std::fs::write(prompts.join("explain.prompt"), explain).unwrap();

    let first = publish(&prompts, &url, &["staging"]);
    assert!(first.status.success(), "{}", err(&first));
    assert_eq!(out(&first), "explain@1\nreview@1\n");
    // Unchanged content: no version.
    let again = publish(&prompts, &url, &["staging"]);
    assert_eq!(out(&again), "explain@1 (unchanged)\nreview@1 (unchanged)\n");
    // A partial is part of the prompt that includes it.
    std::fs::write(prompts.join("_persona.prompt"), "You are terse.").unwrap();
    review(&prompts, "Please review:");
    let changed = publish(&prompts, &url, &[]);
    assert_eq!(out(&changed), "explain@2\nreview@2\n", "{}", err(&changed));

    let versions = run(&["versions", "--registry", &url, "review"]);
    let lines: Vec<&str> = std::str::from_utf8(&versions.stdout)
        .unwrap()
        .lines()
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("review@1  staging  sha256:"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("review@2  latest  sha256:"),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("  tester  20"), "{}", lines[1]);
    let json: Value = serde_json::from_slice(
        &run(&["versions", "--registry", &url, "review", "--format", "json"]).stdout,
    )
    .unwrap();
    assert_eq!(json["versions"][1]["labels"], json!(["latest"]));
    assert_ne!(json["versions"][0]["digest"], json["versions"][1]["digest"]);

    // Each label serves its own version, rendered from what was stored.
    let render = |source: &str, name: &str, arg: &str| {
        let output = run(&["render", "--dir", source, name, arg]);
        assert!(output.status.success(), "{}", err(&output));
        out(&output)
    };
    let staging = format!("{url}#staging");
    let latest = format!("{url}#latest");
    assert!(render(&staging, "review", "code=x").contains("Review this: x"));
    assert!(render(&latest, "review", "code=x").contains("Please review: x"));
    assert!(render(&staging, "explain", "topic=rust").contains("You are kind."));
    assert!(render(&latest, "explain", "topic=rust").contains("You are terse."));

    // A move, and a rollback that is a move back.
    let moved = run(&["label", "--registry", &url, "review@2", "staging"]);
    assert_eq!(out(&moved), "staging: review@2\n", "{}", err(&moved));
    assert!(render(&staging, "review", "code=x").contains("Please review: x"));
    run(&["label", "--registry", &url, "review@1", "staging"]);
    assert!(render(&staging, "review", "code=x").contains("Review this: x"));
    // Retired from a label: no longer in its catalog.
    let removed = run(&["label", "--registry", &url, "--remove", "review", "staging"]);
    assert!(removed.status.success(), "{}", err(&removed));
    let listed = run(&["list", &staging]);
    assert_eq!(out(&listed).lines().count(), 1, "{}", out(&listed));
    assert!(out(&listed).starts_with("explain"));

    // A registry is a catalog as a folder is: checked, written as a
    // catalog, compared between labels.
    let checked = run(&["check", &latest]);
    assert_eq!(checked.status.code(), Some(0), "{}", err(&checked));
    assert!(err(&checked).contains("prompts: 2"), "{}", err(&checked));
    let catalog: Value = serde_json::from_slice(&run(&["catalog", &latest]).stdout).unwrap();
    assert_eq!(catalog["catalog"], 1, "{catalog}");
    assert!(catalog.to_string().contains("\"review\""), "{catalog}");
    let diff = run(&["diff", &staging, &latest]);
    assert_eq!(diff.status.code(), Some(0), "{}{}", out(&diff), err(&diff));
    assert!(out(&diff).contains("prompt-added"), "{}", out(&diff));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_a_clear_message() {
    let dir = fresh("bad-input");
    let url = format!("sqlite:{}", dir.join("reg.db").display());
    let prompts = dir.join("prompts");
    std::fs::create_dir_all(&prompts).unwrap();
    review(&prompts, "Review:");
    assert!(publish(&prompts, &url, &["production"]).status.success());

    let refused = |args: &[&str], code: i32, says: &str| {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(code),
            "{args:?}: {}",
            err(&output)
        );
        assert!(err(&output).contains(says), "{args:?}: {}", err(&output));
    };
    // Not a database.
    refused(
        &["versions", "--registry", "mysql://db/x", "review"],
        2,
        "is not a registry",
    );
    refused(
        &["list", "http://example.com#production"],
        2,
        "is not a registry",
    );
    refused(
        &["versions", "--registry", "sqlite:", "review"],
        2,
        "names no file",
    );
    // Malformed NAME@VERSION, and labels that are not.
    for target in ["review", "review@", "review@0", "review@x", "@1"] {
        refused(
            &["label", "--registry", &url, target, "staging"],
            2,
            "NAME@VERSION",
        );
    }
    refused(
        &["label", "--registry", &url, "review@1", "latest"],
        2,
        "newest version",
    );
    refused(
        &["label", "--registry", &url, "review@1", "a b"],
        2,
        "must be 1 to 64",
    );
    // What is not there.
    refused(
        &["label", "--registry", &url, "review@7", "staging"],
        1,
        "no version `review@7`",
    );
    refused(
        &["label", "--registry", &url, "--remove", "review", "nope"],
        1,
        "not in label",
    );
    refused(
        &["versions", "--registry", &url, "nope"],
        1,
        "no prompt `nope`",
    );
    refused(
        &["list", &format!("{url}#nope")],
        2,
        "label `nope` points at no prompt",
    );
    // A prompt whose files are past what a server reads is not published:
    // five partials of 900 KB, all included.
    let big = dir.join("big");
    std::fs::create_dir_all(&big).unwrap();
    let mut includes = String::new();
    for n in 0..5 {
        std::fs::write(big.join(format!("_p{n}.prompt")), "x".repeat(900_000)).unwrap();
        let _ = write!(includes, "{{{{> p{n}}}}}");
    }
    std::fs::write(big.join("big.prompt"), format!("---\n---\n{includes}")).unwrap();
    let past = publish(&big, &url, &[]);
    assert_eq!(past.status.code(), Some(1), "{}", err(&past));
    assert!(
        err(&past).contains("more than 4194304 bytes"),
        "{}",
        err(&past)
    );
    // A folder with a problem publishes nothing.
    std::fs::write(prompts.join("broken.md"), "+++\nname = 3\n+++\nx").unwrap();
    review(&prompts, "Changed:");
    let broken = publish(&prompts, &url, &[]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(out(&broken).contains("broken.md"), "{}", out(&broken));
    assert!(
        err(&broken).contains("nothing published"),
        "{}",
        err(&broken)
    );
    let versions = run(&["versions", "--registry", &url, "review"]);
    assert_eq!(out(&versions).lines().count(), 1, "{}", out(&versions));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `publishers` `publish` processes at once, each with its own text for
/// the same prompt: every one is stored, numbered 1.. without gaps or
/// duplicates.
fn publishers_at_once(url: &str, name: &str) {
    let publishers = 6;
    // A first version, for label moves made while the others publish.
    let first = fresh(&format!("{name}-first"));
    review(&first, "First says review:");
    assert!(publish(&first, url, &["staging"]).status.success());
    let dirs: Vec<PathBuf> = (0..publishers)
        .map(|n| {
            let dir = fresh(&format!("{name}-{n}"));
            review(&dir, &format!("Publisher {n} says review:"));
            dir
        })
        .collect();
    let children: Vec<Child> = dirs
        .iter()
        .map(|dir| {
            Command::new(BIN)
                .args(["publish", dir.to_str().unwrap(), "--registry", url])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Label moves meanwhile wait their turn; none fails.
    let moves: Vec<Child> = (0..publishers)
        .map(|_| {
            Command::new(BIN)
                .args(["label", "--registry", url, "review@1", "staging"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for moved in moves {
        let output = moved.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", err(&output));
    }
    let mut versions: Vec<String> = children
        .into_iter()
        .map(|child| {
            let output = child.wait_with_output().unwrap();
            assert!(output.status.success(), "{}", err(&output));
            out(&output).trim().to_owned()
        })
        .collect();
    versions.sort_by_key(|v| v.trim_start_matches("review@").parse::<u32>().unwrap());
    let expected: Vec<String> = (2..=publishers + 1)
        .map(|v| format!("review@{v}"))
        .collect();
    assert_eq!(versions, expected);
    let listed = run(&["versions", "--registry", url, "review", "--format", "json"]);
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed["versions"].as_array().unwrap().len(), publishers + 1);
    assert_eq!(listed["versions"][0]["labels"], json!(["staging"]));
    let _ = std::fs::remove_dir_all(first);
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn publishers_at_once_on_sqlite_lose_nothing() {
    let dir = fresh("concurrent-sqlite");
    publishers_at_once(&format!("sqlite:{}", dir.join("reg.db").display()), "sq");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn publishers_at_once_on_postgres_lose_nothing() {
    let pg = Postgres::start();
    publishers_at_once(&pg.url(), "pg");
}

/// Waits until `check` holds, for at most `within`; how long it took.
fn within(within: Duration, what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < within, "not within {within:?}: {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
    start.elapsed()
}

fn text_of(result: &Value) -> String {
    result["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{result}"))
        .to_owned()
}

#[test]
fn a_served_label_follows_publishes_and_moves_and_requests_choose_their_own() {
    let dir = fresh("served");
    let url = format!("sqlite:{}", dir.join("reg.db").display());
    let prompts = dir.join("prompts");
    std::fs::create_dir_all(&prompts).unwrap();
    review(&prompts, "First:");
    std::fs::write(prompts.join("ok.md"), "From the registry.").unwrap();
    assert!(publish(&prompts, &url, &["production"]).status.success());
    // A folder served beside it holds `ok` too: the folder's wins.
    let local = served::folder("registry-served");
    let mut served = Served::serve(&local, &["--registry", &url]);
    assert!(
        served.said().contains("has that name"),
        "a warning names both: {}",
        served.said()
    );
    let list = served.call("prompts/list", json!({}));
    let prompts_listed = list["result"]["prompts"].as_array().unwrap();
    let review_entry = prompts_listed
        .iter()
        .find(|p| p["name"] == "review")
        .unwrap();
    assert_eq!(review_entry["_meta"]["mcp-prompts/version"], 1);
    assert_eq!(review_entry["_meta"]["mcp-prompts/label"], "production");
    assert_eq!(
        text_of(&served.get("ok", json!({}))),
        "Still here.",
        "the folder's `ok`"
    );

    // A new version published to the label: served and announced.
    review(&prompts, "Second:");
    assert!(publish(&prompts, &url, &["production"]).status.success());
    assert!(served.notified("notifications/prompts/list_changed", Duration::from_secs(2)));
    assert_eq!(
        text_of(&served.get("review", json!({"code": "x"}))),
        "Second: x"
    );
    // Rollback: a move back restores the old text.
    assert!(
        run(&["label", "--registry", &url, "review@1", "production"])
            .status
            .success()
    );
    assert!(served.notified("notifications/prompts/list_changed", Duration::from_secs(2)));
    assert_eq!(
        text_of(&served.get("review", json!({"code": "x"}))),
        "First: x"
    );

    // Per request: a label, a version by number.
    let chosen = |served: &mut Served, meta: Value| {
        served.call(
            "prompts/get",
            json!({"name": "review", "arguments": {"code": "x"}, "_meta": meta}),
        )
    };
    assert_eq!(
        text_of(&chosen(&mut served, json!({"mcp-prompts/label": "latest"}))),
        "Second: x"
    );
    assert_eq!(
        text_of(&chosen(&mut served, json!({"mcp-prompts/version": 2}))),
        "Second: x"
    );
    assert_eq!(
        text_of(&chosen(&mut served, json!({"mcp-prompts/version": 1}))),
        "First: x"
    );
    let unknown = served.get("nope", json!({}));
    for meta in [
        json!({"mcp-prompts/label": "nope"}),
        json!({"mcp-prompts/version": 9}),
    ] {
        let refused = chosen(&mut served, meta);
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert_eq!(
            refused["error"]["message"],
            unknown["error"]["message"]
                .as_str()
                .unwrap()
                .replace("nope", "review")
        );
    }
    let malformed = chosen(&mut served, json!({"mcp-prompts/version": "2"}));
    assert_eq!(malformed["error"]["code"], -32602, "{malformed}");
    // A name the folder holds is the folder's, whatever `_meta` asks.
    for meta in [
        json!({"mcp-prompts/version": 1}),
        json!({"mcp-prompts/label": "production"}),
    ] {
        let got = served.call("prompts/get", json!({"name": "ok", "_meta": meta}));
        assert_eq!(got["error"]["code"], -32602, "{got}");
    }
    // The server kept serving all along.
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&local);
}

/// A prompt's translations (`review.fr.md` beside `review.md`) are
/// published with it, as part of its version: a changed translation is a
/// new version, and a server of the label answers in the language asked
/// for.
#[test]
fn translations_are_published_and_served_with_their_version() {
    let dir = fresh("translated");
    let url = format!("sqlite:{}", dir.join("reg.db").display());
    let prompts = dir.join("prompts");
    std::fs::create_dir_all(&prompts).unwrap();
    review(&prompts, "First:");
    // Both name the same icon file, which is stored once with the prompt.
    let svg = "<svg xmlns='http://www.w3.org/2000/svg'/>";
    std::fs::write(prompts.join("review.svg"), svg).unwrap();
    let english = std::fs::read_to_string(prompts.join("review.md")).unwrap();
    let english = english.replacen("+++\n", "+++\nicon = \"review.svg\"\n", 1);
    std::fs::write(prompts.join("review.md"), english).unwrap();
    let french = |text: &str| {
        format!(
            "+++\ntitle = \"Relecture\"\nicon = \"review.svg\"\n[[arguments]]\nname = \"code\"\n+++\n{text} {{code}}\n"
        )
    };
    std::fs::write(prompts.join("review.fr.md"), french("Premier :")).unwrap();
    let published = publish(&prompts, &url, &["production"]);
    assert!(published.status.success(), "{}", err(&published));
    assert!(out(&published).contains("review@1"), "{}", out(&published));
    // Only the translation changes: a new version.
    std::fs::write(prompts.join("review.fr.md"), french("Deuxième :")).unwrap();
    let published = publish(&prompts, &url, &["production"]);
    assert!(out(&published).contains("review@2"), "{}", out(&published));
    // A translation whose arguments differ is a problem: nothing is published.
    let broken = "+++\n[[arguments]]\nname = \"other\"\n+++\nx {other}\n";
    std::fs::write(prompts.join("review.de.md"), broken).unwrap();
    let refused = publish(&prompts, &url, &["production"]);
    assert!(!refused.status.success());
    let said = format!("{}{}", out(&refused), err(&refused));
    assert!(
        said.contains("review.de.md: the `de` translation"),
        "{said}"
    );
    std::fs::remove_file(prompts.join("review.de.md")).unwrap();

    let local = served::folder("registry-translated");
    let mut served = Served::serve(&local, &["--registry", &url]);
    let in_language = |served: &mut Served, preference: &str, meta: Value| {
        let mut meta = meta;
        meta["io.modelcontextprotocol/acceptLanguage"] = json!(preference);
        served.call(
            "prompts/get",
            json!({"name": "review", "arguments": {"code": "x"}, "_meta": meta}),
        )
    };
    let got = in_language(&mut served, "fr-CH, en;q=0.5", json!({}));
    assert_eq!(text_of(&got), "Deuxième : x", "{got}");
    assert_eq!(
        got["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr",
        "{got}"
    );
    assert_eq!(
        text_of(&in_language(&mut served, "ja", json!({}))),
        "First: x"
    );
    // A version chosen per request has its own translations.
    let first = in_language(&mut served, "fr", json!({"mcp-prompts/version": 1}));
    assert_eq!(text_of(&first), "Premier : x", "{first}");
    let listed = served.call(
        "prompts/list",
        json!({"_meta": {"io.modelcontextprotocol/acceptLanguage": "fr"}}),
    );
    let entry = (listed["result"]["prompts"].as_array().unwrap().iter())
        .find(|p| p["name"] == "review")
        .unwrap();
    assert_eq!(entry["title"], "Relecture", "{listed}");
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&local);
}

/// A fresh SQLite registry (its folder, and its URL) holding `review`
/// twice: version 1 says "Stable:" (`production`), version 2 "Trial:"
/// (`staging`), both published from code.
async fn stable_and_trial(name: &str) -> (PathBuf, String) {
    let dir = fresh(name);
    let url = format!("sqlite:{}", dir.join("reg.db").display());
    let prompts = dir.join("prompts");
    std::fs::create_dir_all(&prompts).unwrap();
    let registry = mcp_prompts::registry::Registry::open(&url).await.unwrap();
    review(&prompts, "Stable:");
    let published = registry
        .publish_folder(&prompts, &["production"], "ann")
        .await;
    assert_eq!(published.unwrap()[0].to_string(), "review@1");
    review(&prompts, "Trial:");
    let published = registry.publish_folder(&prompts, &["staging"], "ann").await;
    assert_eq!(published.unwrap()[0].to_string(), "review@2");
    registry.close().await;
    (dir, url)
}

#[tokio::test(flavor = "multi_thread")]
async fn scoped_labels_are_unknown_to_callers_without_the_scope() {
    use mcp_prompts::testing::Client;
    use mcp_prompts::{Caller, Server};

    let (dir, url) = stable_and_trial("scopes").await;
    let url_served = url.clone();
    let (service, _prompts) = tokio::task::spawn_blocking(move || {
        Server::new("t", "1")
            .registry(url_served, "production")
            .label_scope("staging", "prompts:staging")
            .label_scope("latest", "prompts:staging")
            .build_live()
            .unwrap()
    })
    .await
    .unwrap();
    let get = |meta: Value| json!({"name": "review", "arguments": {"code": "x"}, "_meta": meta});
    let tester =
        Client::new(&service).as_caller(Some(Caller::new("tess").with_scopes(["prompts:staging"])));
    let stranger = Client::new(&service).as_caller(Some(Caller::new("sam")));
    let anonymous = Client::new(&service).as_caller(None);
    // `latest` is a label too: it points at the trial version, so it is
    // scoped as staging is.
    let staging = get(json!({"mcp-prompts/label": "staging"}));
    let latest = get(json!({"mcp-prompts/label": "latest"}));
    let by_number = get(json!({"mcp-prompts/version": 2}));
    for request in [&staging, &latest, &by_number] {
        let got = tester.request("prompts/get", request).await.unwrap();
        assert_eq!(got["messages"][0]["content"]["text"], "Trial: x");
        let unknown = stranger
            .request("prompts/get", &json!({"name": "nope"}))
            .await;
        for client in [&stranger, &anonymous] {
            let hidden = client.request("prompts/get", request).await.unwrap_err();
            assert_eq!(hidden.code(), -32602);
            let unknown = unknown.as_ref().unwrap_err();
            assert_eq!(
                hidden.message(),
                unknown.message().replace("nope", "review")
            );
        }
    }
    // The served label, and versions it points at, are everyone's.
    let production = get(json!({"mcp-prompts/version": 1}));
    let got = stranger.request("prompts/get", &production).await.unwrap();
    assert_eq!(got["messages"][0]["content"]["text"], "Stable: x");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A replica: `serve --registry URL --http PORT`, with `args`.
struct Replica {
    child: Child,
    port: u16,
    /// Where its stderr (its log) goes.
    log: PathBuf,
}

impl Replica {
    fn start(url: &str, args: &[&str]) -> Self {
        let port = registry_support::free_port();
        let log = std::env::temp_dir().join(format!("mcp-prompts-replica-{port}.log"));
        let mut child = Command::new(BIN)
            .args(["serve", "--registry", url, "--http", &port.to_string()])
            .args(args)
            .env("RUST_LOG", "mcp_prompts=info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(child.try_wait().unwrap().is_none(), "the replica ended");
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the replica listens"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
        Self { child, port, log }
    }

    /// What it logged so far.
    fn said(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.log);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const MODERN: &str = "2026-07-28";

/// A stateless `prompts/get` of `review` through `port`: its text and the
/// replica that answered.
fn modern_get(port: u16) -> (String, String) {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "prompts/get",
        "params": {
            "name": "review", "arguments": {"code": "x"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    });
    let response = post(
        port,
        &body,
        &[
            ("MCP-Protocol-Version", MODERN),
            ("Mcp-Method", "prompts/get"),
            ("Mcp-Name", "review"),
        ],
    );
    let upstream = response.header("x-upstream").unwrap_or("").to_owned();
    (text_of(&response.message()), upstream)
}

/// Whether every replica behind `port` serves `text` (enough requests to
/// reach each under round robin).
fn all_serve(port: u16, replicas: usize, text: &str) -> bool {
    let mut seen = std::collections::HashSet::new();
    for _ in 0..replicas * 2 {
        let (served, upstream) = modern_get(port);
        if served != text {
            return false;
        }
        seen.insert(upstream);
    }
    seen.len() == replicas
}

/// A session through nginx, kept on one replica by its `X-Client`.
struct Session {
    port: u16,
    client: String,
    id: String,
    upstream: String,
    events: std::sync::mpsc::Receiver<String>,
}

impl Session {
    fn open(port: u16, client: &str) -> Self {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}});
        let response = post(port, &init, &[("X-Client", client)]);
        assert_eq!(response.status, 200, "{}", response.body);
        let id = response.header("mcp-session-id").unwrap().to_owned();
        let upstream = response.header("x-upstream").unwrap().to_owned();
        let headers = [
            ("X-Client", client),
            ("Mcp-Session-Id", id.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(post(port, &note, &headers).status, 202);
        let events = http::listen(port, &headers);
        Self {
            port,
            client: client.to_owned(),
            id,
            upstream,
            events,
        }
    }

    fn get(&self) -> String {
        let body = json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/get",
                          "params": {"name": "review", "arguments": {"code": "x"}}});
        let headers = [
            ("X-Client", self.client.as_str()),
            ("Mcp-Session-Id", self.id.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        text_of(&post(self.port, &body, &headers).message())
    }

    /// Whether `notifications/prompts/list_changed` came within `within`.
    fn told(&self, within: Duration) -> bool {
        let start = Instant::now();
        while let Some(left) = within.checked_sub(start.elapsed()) {
            match self.events.recv_timeout(left) {
                Ok(data) if data.contains("notifications/prompts/list_changed") => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    }
}

/// Two sessions through `port`, one on each replica.
fn one_session_per_replica(port: u16) -> Vec<Session> {
    let mut sessions: Vec<Session> = Vec::new();
    for n in 0..64 {
        let session = Session::open(port, &format!("client-{n}"));
        if sessions.iter().all(|s| s.upstream != session.upstream) {
            sessions.push(session);
        }
        if sessions.len() == 2 {
            return sessions;
        }
    }
    panic!("nginx kept every client on one replica");
}

#[test]
fn replicas_on_postgres_behind_nginx_serve_each_publish_and_move_and_outlive_the_database() {
    let pg = Postgres::start();
    let url = pg.url();
    let dir = fresh("replicas");
    review(&dir, "One:");
    assert!(publish(&dir, &url, &["production"]).status.success());

    let stateless = [
        Replica::start(&url, &["--stateless"]),
        Replica::start(&url, &["--stateless"]),
    ];
    let sessions = [Replica::start(&url, &[]), Replica::start(&url, &[])];
    let round_robin = Nginx::start(&stateless.iter().map(|r| r.port).collect::<Vec<_>>(), false);
    let sticky = Nginx::start(&sessions.iter().map(|r| r.port).collect::<Vec<_>>(), true);
    assert!(all_serve(round_robin.port, 2, "One: x"));
    let clients = one_session_per_replica(sticky.port);
    for client in &clients {
        assert_eq!(client.get(), "One: x");
    }

    // A publish reaches every replica within 2 s; sessions are told.
    review(&dir, "Two:");
    assert!(publish(&dir, &url, &["production"]).status.success());
    within(
        Duration::from_secs(2),
        "the publish on both stateless replicas",
        || all_serve(round_robin.port, 2, "Two: x"),
    );
    for client in &clients {
        assert!(
            client.told(Duration::from_secs(2)),
            "list_changed on {}",
            client.upstream
        );
        assert_eq!(client.get(), "Two: x");
    }
    // A rollback is a label move: the old text again, everywhere.
    assert!(
        run(&["label", "--registry", &url, "review@1", "production"])
            .status
            .success()
    );
    within(
        Duration::from_secs(2),
        "the rollback on both stateless replicas",
        || all_serve(round_robin.port, 2, "One: x"),
    );
    for client in &clients {
        assert!(client.told(Duration::from_secs(2)));
        assert_eq!(client.get(), "One: x");
    }

    // The database stops: every replica keeps serving what it read, and
    // says so once, however long it stays away.
    pg.stop();
    std::thread::sleep(Duration::from_millis(2500));
    assert!(all_serve(round_robin.port, 2, "One: x"));
    for client in &clients {
        assert_eq!(client.get(), "One: x");
    }
    let away = "the registry cannot be read";
    for replica in stateless.iter().chain(&sessions) {
        assert_eq!(
            replica.said().matches(away).count(),
            1,
            "{}",
            replica.said()
        );
    }
    // Back, and changed meanwhile (as another site would): caught up.
    pg.resume();
    let moved = run(&["label", "--registry", &url, "review@2", "production"]);
    assert!(moved.status.success(), "{}", err(&moved));
    within(Duration::from_secs(5), "the replicas catch up", || {
        all_serve(round_robin.port, 2, "Two: x")
    });
    for client in &clients {
        within(Duration::from_secs(5), "the sessions catch up", || {
            client.get() == "Two: x"
        });
    }
    for replica in stateless.iter().chain(&sessions) {
        assert!(
            replica.said().contains("can be read again"),
            "{}",
            replica.said()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn hostile_rows_are_left_out_and_the_rest_keeps_following() {
    use mcp_prompts::Server;
    use mcp_prompts::registry::Registry;
    use mcp_prompts::testing::Client;

    let pg = Postgres::start();
    let url = pg.url();
    let dir = fresh("hostile-rows");
    review(&dir, "One:");
    let registry = Registry::open(&url).await.unwrap();
    registry
        .publish_folder(&dir, &["production"], "ann")
        .await
        .unwrap();
    let served_url = url.clone();
    let (service, _prompts) = tokio::task::spawn_blocking(move || {
        Server::new("t", "1")
            .registry(served_url, "production")
            .build_live()
            .unwrap()
    })
    .await
    .unwrap();
    // Rows a folder could never hold, written straight into the database
    // by whoever can write it: a text past 1 MiB, a file past it, and a
    // row whose file names another prompt (to take `review` over).
    let now = "'2026-01-01T00:00:00.000Z'";
    pg.psql(&format!(
        "INSERT INTO prompt_versions VALUES ('big', 1, 'big.md', repeat('x', 2000000), 'sha256:0', 'eve', {now});
         INSERT INTO prompt_versions VALUES ('icon', 1, 'icon.md', E'+++\\nicon = \"i.png\"\\n+++\\nIcon', 'sha256:1', 'eve', {now});
         INSERT INTO prompt_files VALUES ('icon', 1, 'i.png', decode(repeat('00', 2000000), 'hex'));
         INSERT INTO prompt_versions VALUES ('aaa', 1, 'aaa.md', E'+++\\nname = \"review\"\\n+++\\nEVIL', 'sha256:2', 'eve', {now});
         INSERT INTO prompt_labels VALUES ('production', 'big', 1, 'eve', {now}), ('production', 'icon', 1, 'eve', {now}), ('production', 'aaa', 1, 'eve', {now});
         UPDATE registry_changes SET counter = counter + 1; NOTIFY mcp_prompts_registry;"
    ));
    // The next publish is served; none of those rows is.
    review(&dir, "Two:");
    registry
        .publish_folder(&dir, &["production"], "ann")
        .await
        .unwrap();
    let client = Client::new(&service);
    let start = Instant::now();
    loop {
        let got = client.get(("review", [("code", "x")])).await.unwrap();
        if got.texts() == ["Two: x"] {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            got.texts()
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let listed = client.request("prompts/list", &json!({})).await.unwrap();
    let names: Vec<&str> = listed["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["review"]);
    // A hostile version of the served prompt, under another label: asked
    // for, it is unknown; the served one still serves.
    pg.psql(&format!(
        "INSERT INTO prompt_versions VALUES ('review', 3, 'review.md', repeat('y', 2000000), 'sha256:3', 'eve', {now});
         INSERT INTO prompt_labels VALUES ('evil', 'review', 3, 'eve', {now});
         UPDATE registry_changes SET counter = counter + 1; NOTIFY mcp_prompts_registry;"
    ));
    tokio::time::sleep(Duration::from_millis(500)).await;
    for choice in [
        json!({"mcp-prompts/label": "evil"}),
        json!({"mcp-prompts/version": 3}),
    ] {
        let asked = json!({"name": "review", "arguments": {"code": "x"}, "_meta": choice});
        let refused = client.request("prompts/get", &asked).await.unwrap_err();
        assert_eq!(refused.code(), -32602, "{choice}");
    }
    let got = client.get(("review", [("code", "x")])).await.unwrap();
    assert_eq!(got.texts(), ["Two: x"]);
    // Asked for by number, the others are unknown too.
    for (name, version) in [("big", 1), ("aaa", 1), ("review", 9)] {
        let asked = json!({"name": name, "_meta": {"mcp-prompts/version": version}});
        let refused = client.request("prompts/get", &asked).await.unwrap_err();
        assert_eq!(refused.code(), -32602);
    }
    registry.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 2026-07-28 request's `_meta`, with `choice`'s keys.
fn modern(choice: Value) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    for (key, value) in choice.as_object().unwrap() {
        meta[key] = value.clone();
    }
    meta
}

/// A stateless `prompts/get` of `review` with `meta`: the message.
fn get_review(port: u16, meta: Value) -> Value {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "prompts/get",
        "params": {"name": "review", "arguments": {"code": "x"}, "_meta": meta}
    });
    let headers = [
        ("MCP-Protocol-Version", MODERN),
        ("Mcp-Method", "prompts/get"),
        ("Mcp-Name", "review"),
    ];
    post(port, &body, &headers).message()
}

#[test]
fn label_scopes_from_the_command_line_and_a_label_of_its_own() {
    let dir = fresh("cli-scopes");
    let url = format!("sqlite:{}", dir.join("reg.db").display());
    let prompts = dir.join("prompts");
    std::fs::create_dir_all(&prompts).unwrap();
    review(&prompts, "Stable:");
    assert!(publish(&prompts, &url, &["production"]).status.success());
    review(&prompts, "Trial:");
    assert!(publish(&prompts, &url, &["staging"]).status.success());
    // `*`: every label but the served one needs the scope; an
    // unauthenticated HTTP client has none.
    let closed = Replica::start(&url, &["--stateless", "--label-scope", "*=prompts:all"]);
    let get = get_review;
    for choice in [
        json!({"mcp-prompts/label": "staging"}),
        json!({"mcp-prompts/label": "latest"}),
        json!({"mcp-prompts/version": 2}),
    ] {
        let refused = get(closed.port, modern(choice.clone()));
        assert_eq!(refused["error"]["code"], -32602, "{choice}: {refused}");
    }
    for choice in [
        json!({"mcp-prompts/label": "production"}),
        json!({"mcp-prompts/version": 1}),
    ] {
        let got = get(closed.port, modern(choice.clone()));
        let text = &got["result"]["messages"][0]["content"]["text"];
        assert_eq!(text, "Stable: x", "{choice}: {got}");
    }
    // A label of its own: staging served, to everyone.
    let staging = Replica::start(&url, &["--stateless", "--label", "staging"]);
    let got = get(staging.port, modern(json!({})));
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"], "Trial: x",
        "{got}"
    );
    // A label that points at nothing yet: a server starts, and serves
    // nothing of it until it does.
    let empty = Replica::start(&url, &["--stateless", "--label", "canary"]);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/list", "params": {"_meta": modern(json!({}))}});
    let headers = [
        ("MCP-Protocol-Version", MODERN),
        ("Mcp-Method", "prompts/list"),
    ];
    let listed = post(empty.port, &body, &headers).message();
    assert_eq!(listed["result"]["prompts"], json!([]), "{listed}");
    assert!(
        run(&["label", "--registry", &url, "review@1", "canary"])
            .status
            .success()
    );
    within(
        Duration::from_secs(2),
        "the new label's prompt is served",
        || {
            get(empty.port, modern(json!({})))["result"]["messages"][0]["content"]["text"]
                == "Stable: x"
        },
    );
    // A 2026-07-28 client listening hears of a change.
    let subscribe = json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen",
        "params": {"notifications": {"promptsListChanged": true}, "_meta": modern(json!({}))}});
    let headers = [
        ("MCP-Protocol-Version", MODERN),
        ("Mcp-Method", "subscriptions/listen"),
    ];
    let events = http::post_stream(staging.port, &subscribe, &headers);
    let ack = events.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(
        ack.contains("notifications/subscriptions/acknowledged"),
        "{ack}"
    );
    review(&prompts, "Third:");
    assert!(publish(&prompts, &url, &["staging"]).status.success());
    let change = events
        .recv_timeout(Duration::from_secs(2))
        .expect("a change within 2 s");
    assert!(
        change.contains("notifications/prompts/list_changed"),
        "{change}"
    );
    let got = get(staging.port, modern(json!({})));
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"], "Third: x",
        "{got}"
    );
    // `*` is a label scope of the command line too, checked there.
    let bad = run(&["serve", "--registry", &url, "--label-scope", "a b=x"]);
    assert_eq!(bad.status.code(), Some(2), "{}", err(&bad));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A prompts handler inside rmcp (the official Rust SDK).
#[derive(Clone)]
struct RmcpHandler {
    prompts: mcp_prompts::rmcp::RmcpPrompts,
}

impl rmcp::ServerHandler for RmcpHandler {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        let capabilities = rmcp::model::ServerCapabilities::default();
        rmcp::model::ServerConfig::new(self.prompts.capabilities(capabilities))
    }

    mcp_prompts::rmcp::serve_prompts!(prompts);
}

/// A registry's versions through rmcp: the one served, and the ones a
/// request's `_meta` chooses.
#[tokio::test(flavor = "multi_thread")]
async fn a_registry_s_versions_are_chosen_through_rmcp() {
    use mcp_prompts::Server;
    use rmcp::ServiceExt;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (dir, url) = stable_and_trial("rmcp").await;
    let served = url.clone();
    let (service, _prompts) = tokio::task::spawn_blocking(move || {
        Server::new("t", "1")
            .registry(served, "production")
            .build_live()
            .unwrap()
    })
    .await
    .unwrap();
    let handler = RmcpHandler {
        prompts: mcp_prompts::rmcp::RmcpPrompts::new(&service),
    };
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(tokio::io::split(theirs)).await {
            let _ = running.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(ours);
    let mut lines = BufReader::new(read).lines();
    let mut call = async |message: Value| -> Value {
        write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        let id = message["id"].clone();
        loop {
            let line = lines.next_line().await.unwrap().unwrap();
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer["id"] == id {
                return answer;
            }
        }
    };
    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": {"name": "t", "version": "1"}});
    call(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})).await;
    let get = |id: u32, meta: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "prompts/get",
               "params": {"name": "review", "arguments": {"code": "x"}, "_meta": meta}})
    };
    for (id, meta, text) in [
        (2, json!({}), "Stable: x"),
        (3, json!({"mcp-prompts/label": "staging"}), "Trial: x"),
        (4, json!({"mcp-prompts/version": 1}), "Stable: x"),
        (5, json!({"mcp-prompts/version": 2}), "Trial: x"),
    ] {
        let got = call(get(id, meta.clone())).await;
        let said = &got["result"]["messages"][0]["content"]["text"];
        assert_eq!(said, text, "{meta}: {got}");
    }
    let refused = call(get(6, json!({"mcp-prompts/label": "nope"}))).await;
    assert_eq!(
        refused["error"]["message"], "Unknown prompt: review",
        "{refused}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
