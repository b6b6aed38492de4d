//! The showcase's prompts through the test kit: in process, over the real
//! dispatch path, asserted as Rust values. The catalog snapshot makes any
//! change to a prompt's listing visible in review. And the showcase binary's
//! own `check` and `render`.

mod http_support;
#[path = "../examples/showcase/prompts.rs"]
mod showcase;
mod support;

use mcp_prompts::testing::Client;
use mcp_prompts::{Error, GetPrompt, Role, Server};
use showcase::{Tone, code_review, greet, release_notes, summarize};

fn client() -> Client {
    let service = Server::new("showcase", "1.0")
        .catalog(showcase::CATALOG)
        .translations(showcase::translations())
        .build()
        .expect("the showcase catalog is valid");
    Client::new(&service)
}

#[tokio::test]
async fn catalog_snapshot() {
    insta::assert_snapshot!("showcase_catalog", client().catalog_json().await);
}

/// Every showcase prompt over every combination of its arguments, one
/// snapshot each: a change to what any prompt says, for any arguments,
/// shows in review. Prompts that ask their user are answered.
#[tokio::test]
async fn every_prompt_over_its_argument_matrix() {
    use mcp_prompts::testing::Answers;
    use serde_json::json;
    let client = client().answering(Answers::fields([
        ("environment", json!("production")),
        ("canary", json!(true)),
        ("context", json!("<context>")),
    ]));
    assert_eq!(client.prompt_names().await.len(), showcase::CATALOG.len());
    // `matrix_NAME` for each prompt the client sees.
    mcp_prompts::assert_matrix_snapshot!(client);
}

#[tokio::test]
async fn greet_takes_a_choice_with_a_default() {
    let client = client();
    let formal = client
        .get(greet::args().name("Ann").tone(Tone::Formal))
        .await
        .unwrap();
    assert_eq!(
        formal.transcript(),
        [(Role::User, "Compose a short, formal greeting for Ann.")]
    );
    let default = client.get(greet::args().name("Bo")).await.unwrap();
    assert_eq!(
        default.texts(),
        ["Compose a short, casual greeting for Bo."]
    );
    // Choices match case-insensitively and render canonically.
    let shouted = client
        .get(greet::args().name("Cy").tone("FORMAL"))
        .await
        .unwrap();
    assert_eq!(
        shouted.texts(),
        ["Compose a short, formal greeting for Cy."]
    );
}

#[tokio::test]
async fn greet_rejects_an_unknown_tone_listing_the_choices() {
    let err = client()
        .get(greet::args().name("Ann").tone("rude"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Error::INVALID_PARAMS);
    for word in ["`tone`", "`formal`", "`casual`", "rude"] {
        assert!(err.message().contains(word), "{word}: {}", err.message());
    }
    let data = err.data().unwrap();
    assert_eq!(data["argument"], "tone");
    assert_eq!(data["choices"], serde_json::json!(["formal", "casual"]));
}

#[tokio::test]
async fn release_notes_renders_its_template_file() {
    let request = release_notes::args().release(|r| {
        r.project("mcp-prompts")
            .version("0.2.0")
            .changes("Add templates\nAdd catalogs")
    });
    let got = client().get(request).await.unwrap();
    assert_eq!(
        got.description(),
        Some("Draft release notes from a change list")
    );
    assert_eq!(
        got.transcript(),
        [
            (Role::User, "Write release notes for mcp-prompts 0.2.0."),
            (
                Role::Assistant,
                "I will group the changes by kind and keep each line short."
            ),
            (Role::User, "Changes:\nAdd templates\nAdd catalogs"),
        ]
    );
}

#[tokio::test]
async fn release_notes_shows_its_sections_for_the_arguments_given() {
    let request = release_notes::args()
        .release(|r| {
            r.project("mcp-prompts")
                .version("0.3.0")
                .changes("Drop the old API")
                .audience("operators")
        })
        .breaking(true);
    let got = client().get(request).await.unwrap();
    assert_eq!(
        got.texts(),
        [
            "Write release notes for mcp-prompts 0.3.0.\nWrite them for operators.",
            "I will group the changes by kind and keep each line short.",
            "Changes:\nDrop the old API\n\nSome of these changes break compatibility: list them first, each with how to migrate.",
        ]
    );
    // `false` hides a bool's section as its absence does.
    let request = GetPrompt::new(release_notes::NAME)
        .arg("project", "p")
        .arg("version", "1")
        .arg("changes", "c")
        .arg("breaking", "FALSE");
    let got = client().get(request).await.unwrap();
    assert_eq!(got.texts()[0], "Write release notes for p 1.");
    assert_eq!(got.texts()[2], "Changes:\nc");
}

#[tokio::test]
async fn release_notes_checks_every_flattened_argument() {
    let request = GetPrompt::new(release_notes::NAME).arg("project", "x");
    let err = client().get(request).await.unwrap_err();
    assert_eq!(err.code(), Error::INVALID_PARAMS);
    assert!(err.message().contains("`version`, `changes`"), "{err}");
}

#[tokio::test]
async fn typed_builders_send_typed_values_as_text() {
    let request: GetPrompt = summarize::args().text("Long text").max_words(12).into();
    assert_eq!(
        request.arguments().collect::<Vec<_>>(),
        [("text", "Long text"), ("max_words", "12")]
    );
    let got = client().get(request).await.unwrap();
    assert!(got.texts()[0].contains("at most 12 words"), "{got:?}");
    let bad = client()
        .get(summarize::args().text("t").max_words("many"))
        .await;
    assert_eq!(bad.unwrap_err().code(), Error::INVALID_PARAMS);
}

#[test]
fn handles_name_the_prompts() {
    assert_eq!(greet::NAME, "greet");
    assert_eq!(release_notes::PROMPT.name(), "release_notes");
    let names: Vec<_> = release_notes::PROMPT
        .arguments()
        .map(mcp_prompts::ArgDef::name)
        .collect();
    assert_eq!(
        names,
        ["project", "version", "changes", "audience", "breaking"]
    );
    assert_eq!(showcase::CATALOG.len(), 11);
}

#[tokio::test]
async fn showcase_completions_are_exact() {
    let client = client();
    let language = |typed: &'static str| client.complete(code_review::NAME, "language", typed);
    let py = language("py").await.unwrap();
    assert_eq!((py.values, py.total), (vec!["python".to_owned()], Some(1)));
    assert_eq!(language("c").await.unwrap().values, ["c", "cpp", "csharp"]);
    assert_eq!(language("J").await.unwrap().values, ["java", "javascript"]);
    let all = language("").await.unwrap();
    assert_eq!(all.values, showcase::LANGUAGES);
    assert_eq!((all.total, all.has_more), (Some(20), Some(false)));
    let none = language("zz").await.unwrap();
    assert_eq!((none.values.len(), none.total), (0, Some(0)));

    let tone = |typed: &'static str| client.complete(greet::NAME, "tone", typed);
    assert_eq!(tone("f").await.unwrap().values, ["formal"]);
    assert_eq!(tone("").await.unwrap().values, ["formal", "casual"]);

    let rust = [("language", "rust")];
    let focus = client
        .complete_with(code_review::NAME, "focus", "", &rust)
        .await
        .unwrap();
    assert_eq!(
        focus.values,
        ["ownership", "lifetimes", "unsafe code", "error handling"]
    );
    let focus = client
        .complete(code_review::NAME, "focus", "r")
        .await
        .unwrap();
    assert_eq!(focus.values, ["readability"]);

    let arg1 = client
        .complete("test_prompt_with_arguments", "arg1", "test")
        .await
        .unwrap();
    assert!(arg1.values.is_empty());
    let unknown = client
        .complete("no_such_prompt", "x", "")
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Error::INVALID_PARAMS);
}

fn resource_paths(input: &mcp_prompts::CompletionInput) -> Vec<String> {
    let uri = input.uri().unwrap_or_default().to_owned();
    input
        .matching(["README.md", "Cargo.toml", "src"])
        .map(|path| format!("{path} ({uri})"))
        .collect()
}

#[tokio::test]
async fn applications_complete_resource_templates_through_a_hook() {
    let service = Server::new("files", "1.0")
        .catalog(mcp_prompts::catalog![summarize])
        .complete_resources(resource_paths)
        .build()
        .unwrap();
    let params = serde_json::json!({
        "ref": {"type": "ref/resource", "uri": "file:///{path}"},
        "argument": {"name": "path", "value": "c"},
    });
    let result = Client::new(&service)
        .request("completion/complete", &params)
        .await
        .unwrap();
    assert_eq!(
        result["completion"]["values"],
        serde_json::json!(["Cargo.toml (file:///{path})"])
    );
}

#[tokio::test]
async fn without_completers_completion_is_not_offered() {
    let bare = Server::new("bare", "1.0")
        .catalog(mcp_prompts::catalog![summarize])
        .build()
        .unwrap();
    let err = Client::new(&bare)
        .complete(summarize::NAME, "text", "")
        .await
        .unwrap_err();
    assert_eq!(err.code(), Error::METHOD_NOT_FOUND);
    let declared = Server::new("declared", "1.0")
        .catalog(mcp_prompts::catalog![summarize])
        .completions()
        .build()
        .unwrap();
    let empty = Client::new(&declared)
        .complete(summarize::NAME, "text", "")
        .await
        .unwrap();
    assert!(empty.values.is_empty());
}

/// The showcase offers the library's `check` and `render` over its own
/// prompts, as a binary of Rust prompts does with one call.
#[test]
fn the_showcase_checks_and_renders_its_own_prompts() {
    let (code, out, err) = run(&["render", "greet", "name=Ann", "tone=formal"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "Compose a greeting\n\n── user ──\nCompose a short, formal greeting for Ann.\n\n"
    );
    // A prompt that asks, answered up front.
    let (code, out, err) = run(&[
        "render",
        "deploy_notes",
        "service=db",
        "--answer",
        "environment=production",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("db going to production (canary: false)"),
        "{out}"
    );
    let (code, _, err) = run(&["render", "greet", "name=Ann", "tone=rude"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("invalid value for argument `tone`"), "{err}");
    let (code, out, err) = run(&["check"]);
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
    assert!(err.contains("prompts: 11, skills: 1, problems: 0"), "{err}");
}

/// `--help` exits 0 and lists every option the showcase reads; a mistaken
/// option is named, with the usage, and exits 2.
#[test]
fn the_showcase_s_help_lists_every_option() {
    let output = std::process::Command::new(http_support::showcase_binary())
        .arg("--help")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for option in [
        "http",
        "stateless",
        "playground",
        "prompts-dir",
        "skills-dir",
        "skills-as-prompts",
        "prompts-as-tools",
        "auth-issuer",
        "auth-audience",
        "auth-jwks",
    ] {
        assert!(help.contains(&format!("--{option}")), "--{option}: {help}");
    }
    assert!(help.contains("MCP_PROMPTS_REQUEST_STATE_SECRET"), "{help}");
    let output = std::process::Command::new(http_support::showcase_binary())
        .args(["--stateles"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("--stateles") && error.contains("Usage: showcase"),
        "{error}"
    );
}

/// The showcase binary with `args`: exit code, stdout, stderr.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let output = std::process::Command::new(http_support::showcase_binary())
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The showcase's catalog is committed (`examples/showcase/prompts.lock.json`)
/// and held to: a breaking change to a showcase prompt fails here. The
/// check also fails on a committed catalog that had more than the showcase
/// has now (a choice `greet` no longer takes).
#[test]
fn the_showcase_keeps_its_committed_catalog() {
    let lock = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/showcase/prompts.lock.json"
    );
    let (code, out, err) = run(&["check", "--against", lock]);
    assert_eq!((code, out.as_str()), (Some(0), ""), "{out}{err}");
    let (code, catalog, _) = run(&["catalog"]);
    assert_eq!(code, Some(0));
    let committed = std::fs::read_to_string(lock).unwrap();
    let (shipped, now): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&committed).unwrap(),
        serde_json::from_str(&catalog).unwrap(),
    );
    // The committed catalog is the showcase's as it is now: a change to a
    // showcase prompt comes with the catalog written again
    // (`cargo run --example showcase -- catalog > examples/showcase/prompts.lock.json`).
    assert_eq!(now, shipped, "the committed catalog is out of date");
    // A catalog that shipped a tone `greet` no longer takes.
    let older = committed.replacen("\"formal\",", "\"formal\",\n            \"rude\",", 1);
    assert_ne!(older, committed);
    let file = std::env::temp_dir().join(format!("showcase-lock-{}.json", std::process::id()));
    std::fs::write(&file, older).unwrap();
    let (code, out, _) = run(&["check", "--against", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("breaking: choice-removed: argument `tone` of `greet` no longer takes `rude`"),
        "{out}"
    );
    let _ = std::fs::remove_file(file);
}
