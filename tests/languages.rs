//! Prompts in the user's language (SEP-2792), as real clients see them:
//! the official TypeScript and Python clients send the preference as raw
//! `_meta` to the showcase and to the rmcp example, each serving a folder
//! with `review.md` and its French and German translations, over stdio
//! and Streamable HTTP, in both eras (tests/clients/languages.mjs and
//! tests/clients/python/languages.py); the HTTP header rules with raw
//! requests; and the command line's `check`, `render --lang`, `catalog`
//! and `diff` over translated prompt files.

mod http_support;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use http_support::{
    Running, cli_binary, example_binary, header_value, npm_ci_once, open_session, post_raw,
    python_script, read_response, showcase_binary,
};
use serde_json::{Value, json};

const REVIEW: &str = "+++\ntitle = \"Review\"\ndescription = \"Review some code\"\n\n\
    [[arguments]]\nname = \"code\"\ndescription = \"The code\"\n+++\nReview this code: {code}\n";
const REVIEW_FR: &str = "+++\ntitle = \"Relecture\"\ndescription = \"Relire du code\"\n\n\
    [[arguments]]\nname = \"code\"\ndescription = \"Le code\"\n+++\nRelis ce code : {code}\n";
const REVIEW_DE: &str = "+++\ntitle = \"Durchsicht\"\ndescription = \"Code prüfen\"\n\n\
    [[arguments]]\nname = \"code\"\ndescription = \"Der Code\"\n+++\nPrüfe diesen Code: {code}\n";

/// A folder with `review.md` and its French and German translations.
fn translated_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("review.md"), REVIEW).unwrap();
    std::fs::write(dir.path().join("review.fr.md"), REVIEW_FR).unwrap();
    std::fs::write(dir.path().join("review.de.md"), REVIEW_DE).unwrap();
    dir
}

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

fn typescript(args: &[&str]) -> Output {
    let dir = clients_dir();
    npm_ci_once(&dir);
    Command::new("node")
        .arg("languages.mjs")
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("node is needed to run the official MCP client")
}

fn python(args: &[&str]) -> Output {
    python_script("python", "languages.py", args)
}

fn assert_passed(output: &Output, checks: usize) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the official client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains(&format!("{checks} passed, 0 failed")),
        "{stdout}"
    );
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn official_clients_over_stdio() {
    let dir = translated_folder();
    let showcase = showcase_binary();
    assert_passed(&typescript(&[text(&showcase), text(dir.path())]), 3);
    assert_passed(&python(&[text(&showcase), text(dir.path())]), 10);
}

#[test]
fn official_clients_over_http() {
    let dir = translated_folder();
    let server = Running::showcase(&["--prompts-dir", text(dir.path())]);
    assert_passed(&typescript(&[&server.url(), text(dir.path())]), 3);
    assert_passed(&python(&[&server.url(), text(dir.path())]), 10);
}

#[test]
fn official_clients_inside_rmcp() {
    let dir = translated_folder();
    let rmcp = example_binary("with_rmcp");
    assert_passed(&python(&[text(&rmcp), text(dir.path())]), 10);
    let server = Running::example_with("with_rmcp", &["--prompts-dir", text(dir.path())]);
    assert_passed(&typescript(&[&server.url(), text(dir.path())]), 3);
}

/// A 2026-07-28 request's `_meta`, preferring `preference` if given.
fn modern_meta(preference: Option<&str>) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    if let Some(preference) = preference {
        meta["io.modelcontextprotocol/acceptLanguage"] = preference.into();
    }
    meta
}

/// A stateless `prompts/get` of `review` preferring `preference` in
/// `_meta` (if any), with `headers`: the response's head and message.
fn stateless_get(
    server: &Running,
    preference: Option<&str>,
    headers: &[(&str, &str)],
) -> (String, Value) {
    let body = json!({
        "jsonrpc": "2.0", "id": 7, "method": "prompts/get",
        "params": { "name": "review", "arguments": { "code": "x" }, "_meta": modern_meta(preference) },
    });
    let mut all = vec![
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "prompts/get"),
        ("mcp-name", "review"),
    ];
    all.extend_from_slice(headers);
    let (head, body) = read_response(post_raw(server, &all, body.to_string().as_bytes()));
    (head, serde_json::from_str(&body).unwrap())
}

fn first_text(message: &Value) -> &str {
    message["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {message}"))
}

#[test]
fn the_accept_language_header_follows_the_rules() {
    let dir = translated_folder();
    let server = Running::showcase(&["--prompts-dir", text(dir.path())]);
    // Both present and the same once parsed: served, and the response
    // names its language and that it varies by the one asked.
    let (head, message) = stateless_get(
        &server,
        Some("fr-CH, en;q=0.5"),
        &[("accept-language", "fr-ch,EN; q=0.500")],
    );
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert_eq!(first_text(&message), "Relis ce code : x");
    assert_eq!(
        header_value(&head, "content-language"),
        Some("fr"),
        "{head}"
    );
    assert_eq!(
        header_value(&head, "vary"),
        Some("accept-language"),
        "{head}"
    );
    // Both present and different: a header mismatch, 400 with -32020.
    let (head, message) = stateless_get(&server, Some("fr"), &[("accept-language", "de")]);
    assert!(head.starts_with("http/1.1 400"), "{head}");
    assert_eq!(message["error"]["code"], -32020, "{message}");
    assert_eq!(message["id"], 7);
    // `*`, which fetch and browsers add by themselves, is ignored.
    let (head, message) = stateless_get(&server, Some("de"), &[("accept-language", "*")]);
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert_eq!(first_text(&message), "Prüfe diesen Code: x");
    // The header alone says nothing.
    let (head, message) = stateless_get(&server, None, &[("accept-language", "fr")]);
    assert_eq!(first_text(&message), "Review this code: x");
    assert_eq!(header_value(&head, "content-language"), None, "{head}");
    assert!(
        message["result"]["_meta"]
            .get("io.modelcontextprotocol/contentLanguage")
            .is_none()
    );
    // A handshake-era session ignores the header.
    let session = open_session(&server, "2025-11-25");
    let body = json!({
        "jsonrpc": "2.0", "id": 8, "method": "prompts/get",
        "params": {
            "name": "review", "arguments": { "code": "x" },
            "_meta": { "io.modelcontextprotocol/acceptLanguage": "de" },
        },
    });
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
        ("accept-language", "fr"),
    ];
    let (head, body) = read_response(post_raw(&server, &headers, body.to_string().as_bytes()));
    let message: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(first_text(&message), "Prüfe diesen Code: x", "{head}");
    assert_eq!(
        message["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"],
        "de"
    );
    assert_eq!(
        header_value(&head, "content-language"),
        Some("de"),
        "{head}"
    );
}

#[test]
fn a_localized_listing_is_never_cached_for_everyone() {
    let dir = translated_folder();
    let server = Running::showcase(&["--prompts-dir", text(dir.path())]);
    let list = |preference: Option<&str>| {
        let body = json!({
            "jsonrpc": "2.0", "id": 1, "method": "prompts/list",
            "params": { "_meta": modern_meta(preference) },
        });
        let headers = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "prompts/list"),
        ];
        let (_, body) = read_response(post_raw(&server, &headers, body.to_string().as_bytes()));
        serde_json::from_str::<Value>(&body).unwrap()["result"].clone()
    };
    let plain = list(None);
    assert_eq!(plain["cacheScope"], "public", "{plain}");
    let french = list(Some("fr"));
    assert_eq!(french["cacheScope"], "private", "{french}");
    assert_eq!(
        french["_meta"]["io.modelcontextprotocol/contentLanguage"],
        "fr"
    );
    // Asked again, the same bytes: pages are kept per order of languages.
    assert_eq!(list(Some("fr")), french);
    // A list is in the language of the first range any listed prompt
    // matched: no prompt has Italian, `review` has French.
    let later = list(Some("it, fr;q=0.5"));
    assert_eq!(
        later["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr",
        "{later}"
    );
    let review = |listing: &Value| {
        listing["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "review")
            .cloned()
            .unwrap()
    };
    assert_eq!(review(&french)["title"], "Relecture");
    assert_eq!(review(&plain)["title"], "Review");
}

fn cli(args: &[&str]) -> Output {
    Command::new(cli_binary()).args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn the_command_line_knows_translations() {
    let dir = translated_folder();
    let folder = text(dir.path());
    let checked = cli(&["check", folder]);
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
    // Rendered in a language, and named in JSON.
    let french = cli(&[
        "render", "--dir", folder, "review", "code=x", "--lang", "fr-CH",
    ]);
    assert!(
        stdout(&french).contains("Relis ce code : x"),
        "{}",
        stdout(&french)
    );
    let json = cli(&[
        "render", "--dir", folder, "review", "code=x", "--lang", "ja", "--format", "json",
    ]);
    let json: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(
        json["_meta"]["io.modelcontextprotocol/contentLanguage"],
        "en"
    );
    assert_eq!(
        json["messages"][0]["content"]["text"],
        "Review this code: x"
    );
    // The catalog lists each prompt's languages; a language added is news.
    let old = cli(&["catalog", folder]);
    let catalog: Value = serde_json::from_str(&stdout(&old)).unwrap();
    let review = catalog["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "review")
        .unwrap();
    assert_eq!(review["languages"], json!(["de", "fr"]));
    let before = dir.path().join("before.json");
    std::fs::write(&before, stdout(&old)).unwrap();
    std::fs::write(dir.path().join("review.it.md"), REVIEW_FR).unwrap();
    let diff = cli(&["diff", text(&before), folder]);
    assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
    assert!(
        stdout(&diff).contains("language-added") && stdout(&diff).contains("`it`"),
        "{}",
        stdout(&diff)
    );
    std::fs::remove_file(dir.path().join("review.it.md")).unwrap();
    std::fs::remove_file(&before).unwrap();
    // A translation whose arguments differ is a problem; one with no
    // default beside it is a prompt of its own, with a warning.
    std::fs::write(
        dir.path().join("review.es.md"),
        REVIEW_FR
            .replace("name = \"code\"", "name = \"codigo\"")
            .replace("{code}", "{codigo}"),
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.pt-BR.md"), "+++\n+++\nNotas\n").unwrap();
    let checked = cli(&["check", folder]);
    let report = format!("{}{}", stdout(&checked), stderr(&checked));
    assert_eq!(checked.status.code(), Some(1), "{report}");
    assert!(
        report.contains("review.es.md")
            && report.contains("(codigo) differ from the prompt's (code)"),
        "{report}"
    );
    assert!(
        report.contains("notes.pt-BR.md") && report.contains("looks like the `pt-BR` translation"),
        "{report}"
    );
}

/// Review a change
#[mcp_prompts::prompt]
fn review_change(
    /// The change to review
    diff: String,
    ctx: mcp_prompts::RequestContext,
) -> String {
    match ctx.language() {
        "fr" => format!("Relis ce changement : {diff}"),
        _ => format!("Review this change: {diff}"),
    }
}

fn with_french(ftl: &str) -> Result<mcp_prompts::Service, mcp_prompts::BuildError> {
    mcp_prompts::Server::new("t", "1")
        .catalog(mcp_prompts::catalog![review_change])
        .translations(mcp_prompts::Translations::new().add("fr", "fr.ftl", ftl))
        .build()
}

#[test]
fn fluent_keys_naming_nothing_fail_the_build() {
    let problems = |ftl: &str| with_french(ftl).unwrap_err().problems().to_vec();
    assert_eq!(
        problems("review_chang = Relire\n"),
        ["fr.ftl: message `review_chang` names no #[prompt] of the program"]
    );
    let wrong_argument = problems("review_change = Relire\n    .arg-dif = Le changement\n");
    assert!(
        wrong_argument[0].contains("`review_change.arg-dif` names no argument"),
        "{wrong_argument:?}"
    );
    let unknown = problems("review_change = Relire\n    .summary = Résumé\n");
    assert!(unknown[0].contains("is not `.description`"), "{unknown:?}");
    let words = problems("mcp-prompts =\n    .one-of = au choix : { $choices }\n    .nope = x\n");
    assert_eq!(words.len(), 1, "{words:?}");
    assert!(
        words[0].contains("`mcp-prompts.nope` is no word of the server's"),
        "{words:?}"
    );
    let broken = problems("review_change = Relire\n\n!oops = x\n");
    assert!(broken[0].starts_with("fr.ftl:3:"), "{broken:?}");
    with_french("review_change = Relire\n    .description = Relire un changement\n    .arg-diff = Le changement\n")
        .unwrap();
}

#[tokio::test]
async fn fluent_texts_and_the_body_follow_the_language() {
    let service = with_french(
        "-product = Relecteur\nreview_change = { -product }\n    .description = Relire un changement\n    .arg-diff = Le changement\n    .arg-diff-title = Changement\n",
    )
    .unwrap();
    let french = mcp_prompts::testing::Client::new(&service).language("fr-BE");
    let listed = french.request("prompts/list", &json!({})).await.unwrap();
    let prompt = &listed["prompts"][0];
    assert_eq!(prompt["title"], "Relecteur", "{listed}");
    assert_eq!(prompt["description"], "Relire un changement");
    assert_eq!(prompt["arguments"][0]["title"], "Changement");
    assert_eq!(prompt["arguments"][0]["description"], "Le changement");
    let got = french
        .get(("review_change", [("diff", "+1")]))
        .await
        .unwrap();
    assert_eq!(got.texts(), ["Relis ce changement : +1"]);
    let english = mcp_prompts::testing::Client::new(&service);
    let got = english
        .get(("review_change", [("diff", "+1")]))
        .await
        .unwrap();
    assert_eq!(got.texts(), ["Review this change: +1"]);
    assert_eq!(got.description(), Some("Review a change"));
}

/// Only a language in a file's own name makes a translation: words that
/// BCP 47 would take (`short`, `api`), and folders (`docs/it.md`), stay
/// prompts of their own; a translation into the default language is
/// never what a request without a preference gets; two files into one
/// language are a problem.
#[test]
fn names_that_are_not_languages_stay_prompts() {
    let dir = translated_folder();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("summary.md", "+++\n+++\nSummary.\n");
    write("summary.short.md", "+++\n+++\nShort.\n");
    write("summary.api.md", "+++\n+++\nApi.\n");
    write("docs.md", "+++\n+++\nDocs.\n");
    write("docs/it.md", "+++\n+++\nDocs in a folder.\n");
    write("review.en.md", &REVIEW_FR.replace("Relis", "EN"));
    let folder = text(dir.path());
    let catalog: Value = serde_json::from_str(&stdout(&cli(&["catalog", folder]))).unwrap();
    let names: Vec<&str> = (catalog["prompts"].as_array().unwrap().iter())
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "docs",
            "docs.it",
            "review",
            "summary",
            "summary.api",
            "summary.short"
        ]
    );
    let plain = cli(&["render", "--dir", folder, "review", "code=x"]);
    assert!(
        stdout(&plain).contains("Review this code: x"),
        "{}",
        stdout(&plain)
    );
    let english = cli(&[
        "render", "--dir", folder, "review", "code=x", "--lang", "en",
    ]);
    assert!(
        stdout(&english).contains("Review this code: x"),
        "{}",
        stdout(&english)
    );
    // `en` is the server's default: the file is said never to be served,
    // and is no language of the prompt.
    let checked = cli(&["check", folder]);
    let report = format!("{}{}", stdout(&checked), stderr(&checked));
    assert!(
        report.contains("review.en.md") && report.contains("`en` is the server's default language"),
        "{report}"
    );
    let review = (catalog["prompts"].as_array().unwrap().iter())
        .find(|p| p["name"] == "review")
        .unwrap();
    assert_eq!(review["languages"], json!(["de", "fr"]), "{review}");
    write("review.FR.md", REVIEW_FR);
    let checked = cli(&["check", folder]);
    let report = format!("{}{}", stdout(&checked), stderr(&checked));
    assert!(
        report.contains("a second `fr` translation of `review`"),
        "{report}"
    );
}

/// A translation into the server's default language would never be
/// served: in code, it fails the build (or the change); with another
/// default, it is served.
#[tokio::test]
async fn a_translation_into_the_default_language_is_refused_in_code() {
    use mcp_prompts::{DynamicPrompt, Server};
    let hello = |text: &str| DynamicPrompt::builder("hello").template(text);
    let translated = || {
        hello("Hello.")
            .translation("en", hello("Hi.").build().unwrap())
            .build()
            .unwrap()
    };
    let refused = Server::new("t", "1")
        .prompts([translated()])
        .build()
        .unwrap_err();
    assert!(
        refused.problems()[0].contains("translation into `en`, the server's default language"),
        "{refused}"
    );
    let other = DynamicPrompt::builder("other")
        .template("x")
        .build()
        .unwrap();
    let (_, prompts) = Server::new("t", "1").prompts([other]).build_live().unwrap();
    assert!(prompts.add(translated()).is_err());
    assert_eq!(prompts.served(), ["other"]);
    // Written in French by default, the English translation is served.
    let service = Server::new("t", "1")
        .default_language("fr")
        .prompts([translated()])
        .build()
        .unwrap();
    let english = mcp_prompts::testing::Client::new(&service).language("en-GB");
    let got = english.get(("hello", [])).await.unwrap();
    assert_eq!(got.texts(), ["Hi."]);
    // So are Fluent texts in the default language.
    let problems = mcp_prompts::Server::new("t", "1")
        .catalog(mcp_prompts::catalog![review_change])
        .translations(mcp_prompts::Translations::new().add(
            "en",
            "en.ftl",
            "review_change = Review\n",
        ))
        .build()
        .unwrap_err();
    assert!(
        problems.problems()[0].contains("translation into `en`"),
        "{problems}"
    );
}

/// A `#[prompt]` added to a live server after it was built has its Fluent
/// texts too; a message naming a `#[prompt]` of the program that is not
/// served yet is no problem.
#[tokio::test]
async fn fluent_texts_reach_a_prompt_added_later() {
    let other = mcp_prompts::DynamicPrompt::builder("other")
        .template("x")
        .build()
        .unwrap();
    let (service, prompts) = mcp_prompts::Server::new("t", "1")
        .prompts([other])
        .translations(mcp_prompts::Translations::new().add(
            "fr",
            "fr.ftl",
            "review_change = Relecture\n    .arg-diff = Le changement\n",
        ))
        .build_live()
        .unwrap();
    prompts.add(review_change::PROMPT).unwrap();
    let french = mcp_prompts::testing::Client::new(&service).language("fr");
    let listed = french.request("prompts/list", &json!({})).await.unwrap();
    let added = &listed["prompts"][1];
    assert_eq!(added["title"], "Relecture", "{listed}");
    assert_eq!(added["arguments"][0]["description"], "Le changement");
    let got = french
        .get(("review_change", [("diff", "+1")]))
        .await
        .unwrap();
    assert_eq!(got.texts(), ["Relis ce changement : +1"]);
}

/// In a session, the form that asks for missing arguments is in the
/// language the request prefers: its question in the server's words, its
/// fields in the prompt's texts. The showcase over stdio.
#[test]
fn a_session_asks_for_missing_arguments_in_the_language_asked_for() {
    let mut client = support::Client::start_program(Command::new(showcase_binary()));
    client.initialize_with("2025-11-25", json!({ "elicitation": {} }));
    let get = json!({ "jsonrpc": "2.0", "id": 7, "method": "prompts/get",
                      "params": { "name": "greet", "arguments": {},
                                  "_meta": { "io.modelcontextprotocol/acceptLanguage": "fr" } } });
    client.send_line(&get.to_string());
    let question = client.read();
    assert_eq!(question["method"], "elicitation/create", "{question}");
    let params = &question["params"];
    assert_eq!(
        params["message"], "Le prompt « Salutation » a besoin de : `name`",
        "{question}"
    );
    assert_eq!(
        params["requestedSchema"]["properties"]["name"]["description"], "Qui saluer",
        "{question}"
    );
    let answer = json!({ "jsonrpc": "2.0", "id": question["id"],
                         "result": { "action": "accept", "content": { "name": "Ann" } } });
    client.send_line(&answer.to_string());
    let got = client.read();
    assert_eq!(
        got["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr",
        "{got}"
    );
    assert!(got.to_string().contains("pour Ann"), "{got}");
}

/// The prompt tools answer in the language asked for, and say which; so
/// does a 2026-07-28 round that asks for missing arguments, whose form is
/// translated. The showcase over stdio, `--prompts-as-tools`.
#[test]
fn the_prompt_tools_and_a_round_that_asks_name_their_language() {
    let mut command = Command::new(showcase_binary());
    command.arg("--prompts-as-tools");
    let mut client = support::Client::start_program(command);
    client.initialize("2025-11-25");
    let french = json!({ "io.modelcontextprotocol/acceptLanguage": "fr" });
    let listed = client.call(
        "tools/call",
        json!({ "name": "list_prompts", "arguments": {}, "_meta": french }),
    );
    let result = &listed["result"];
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr",
        "{listed}"
    );
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("Rédiger une salutation"), "{listed}");
    // The server's own words are French too (the showcase's `fr.ftl`).
    assert!(
        text.contains("name (obligatoire): Qui saluer") && text.contains("au choix : "),
        "{text}"
    );
    let tools = client.call("tools/list", json!({ "_meta": french }));
    assert_eq!(
        tools["result"]["tools"][0]["title"], "Lister les prompts",
        "{tools}"
    );
    assert_eq!(
        tools["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr",
        "{tools}"
    );
    let english = client.call("tools/list", json!({}));
    assert_eq!(
        english["result"]["tools"][0]["title"], "List prompts",
        "{english}"
    );
    assert!(english["result"].get("_meta").is_none(), "{english}");
    let listed = client.call("prompts/list", json!({ "_meta": french }));
    let greet = (listed["result"]["prompts"].as_array().unwrap().iter())
        .find(|p| p["name"] == "greet")
        .unwrap();
    let tone = greet["arguments"][1]["description"].as_str().unwrap();
    assert!(
        tone.starts_with("Le ton de la salutation (au choix : ") && tone.contains("par défaut : "),
        "{tone}"
    );
    let got = client.call(
        "tools/call",
        json!({ "name": "get_prompt",
                "arguments": { "name": "greet", "arguments": { "name": "Ann" } },
                "_meta": french }),
    );
    assert_eq!(
        got["result"]["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr",
        "{got}"
    );
    assert!(
        got.to_string().contains("Rédige une salutation courte"),
        "{got}"
    );
    // 2026-07-28: greet without its required name asks for it, in French.
    let asked = client.call(
        "prompts/get",
        json!({ "name": "greet", "arguments": {},
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": { "elicitation": { "form": {} } },
                    "io.modelcontextprotocol/acceptLanguage": "fr",
                } }),
    );
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/contentLanguage"], "fr",
        "{asked}"
    );
    assert!(asked.to_string().contains("Qui saluer"), "{asked}");
    assert!(
        asked
            .to_string()
            .contains("Le prompt « Salutation » a besoin de : `name`"),
        "{asked}"
    );
}

/// Review a diff
#[mcp_prompts::prompt(template = "Review this diff: {diff}{#focus} Focus on {focus}.{/focus}")]
fn review_diff(
    /// The diff
    diff: String,
    /// What to look at
    focus: Option<String>,
);

/// A template prompt takes a template per language from its Fluent
/// message's `.template`, checked against its arguments when the server
/// is built; its arguments are bound as the default template's are.
#[tokio::test]
async fn a_template_prompt_has_a_template_per_language() {
    let build = |ftl: &str| {
        mcp_prompts::Server::new("t", "1")
            .catalog(mcp_prompts::catalog![review_diff, review_change])
            .translations(mcp_prompts::Translations::new().add("fr", "fr.ftl", ftl))
            .build()
    };
    let service = build(
        "review_diff = Relecture\n    .template = Relis ce diff : { $diff }\n        --- assistant\n        Je regarde { $focus }.\n",
    )
    .unwrap();
    let french = mcp_prompts::testing::Client::new(&service).language("fr");
    let got = french
        .get(("review_diff", [("diff", "+1"), ("focus", "les noms")]))
        .await
        .unwrap();
    assert_eq!(got.texts(), ["Relis ce diff : +1", "Je regarde les noms."]);
    // Its arguments are still checked.
    let missing = french.get(("review_diff", [("focus", "x")])).await;
    assert_eq!(
        missing.unwrap_err().code(),
        mcp_prompts::Error::INVALID_PARAMS
    );
    let english = mcp_prompts::testing::Client::new(&service);
    let got = english
        .get(("review_diff", [("diff", "+1")]))
        .await
        .unwrap();
    assert_eq!(got.texts(), ["Review this diff: +1"]);
    // A placeholder naming no argument, and a template for a function.
    let problems = build("review_diff = Relecture\n    .template = Relis { $dif }\n")
        .unwrap_err()
        .problems()
        .to_vec();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`review_diff`") && p.contains("dif")),
        "{problems:?}"
    );
    let problems = build("review_change = Relire\n    .template = Relis { $diff }\n")
        .unwrap_err()
        .problems()
        .to_vec();
    assert!(
        problems[0].contains("only a #[prompt(template = ...)] takes a template"),
        "{problems:?}"
    );
}

/// A translation added, changed and removed while the folder is served is
/// seen as any prompt file is: announced, and answered in.
#[test]
fn translations_follow_the_folder_while_served() {
    let dir = translated_folder();
    let mut command = Command::new(showcase_binary());
    command.args(["--prompts-dir", text(dir.path())]);
    let mut client = support::Client::start_program(command);
    client.initialize("2025-11-25");
    let get_in = |client: &mut support::Client, language: &str| {
        let got = client.call(
            "prompts/get",
            json!({ "name": "review", "arguments": { "code": "x" },
                    "_meta": { "io.modelcontextprotocol/acceptLanguage": language } }),
        );
        let result = got["result"].clone();
        (
            result["messages"][0]["content"]["text"]
                .as_str()
                .unwrap()
                .to_owned(),
            result["_meta"]["io.modelcontextprotocol/contentLanguage"].clone(),
        )
    };
    assert_eq!(get_in(&mut client, "it").1, "en");
    let italian = dir.path().join("review.it.md");
    std::fs::write(
        &italian,
        REVIEW_FR.replace("Relis ce code", "Rivedi il codice"),
    )
    .unwrap();
    client.assert_list_changed();
    assert_eq!(
        get_in(&mut client, "it"),
        ("Rivedi il codice : x".to_owned(), json!("it"))
    );
    std::fs::write(
        &italian,
        REVIEW_FR.replace("Relis ce code", "Controlla il codice"),
    )
    .unwrap();
    client.assert_list_changed();
    assert_eq!(get_in(&mut client, "it").0, "Controlla il codice : x");
    std::fs::remove_file(&italian).unwrap();
    client.assert_list_changed();
    assert_eq!(
        get_in(&mut client, "it"),
        ("Review this code: x".to_owned(), json!("en"))
    );
}
