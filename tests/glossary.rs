//! ARCHITECTURE.md's glossary matches the code: every type, function and
//! module it names in backticks is defined in the crates' sources, and no
//! retired name (one thing's second name, renamed away) comes back.

use std::fs;
use std::path::{Path, PathBuf};

/// Names that once meant a second thing, and what each became; none may be
/// defined again.
const RETIRED: &[(&str, &str)] = &[
    ("struct ServedPrompts", "CatalogSnapshot"),
    ("struct CatalogError", "BuildError"),
    ("struct WireGet", "a session builds the GetRequest"),
    ("type GetResult", "Result<GetOutcome, Error>"),
    (
        "struct Origin",
        "Sender (a request's), origin (a definition's)",
    ),
    ("enum Definition", "catalog::Kind"),
    (
        "struct Definition",
        "dynamic Parts, the macros' PromptConst",
    ),
    ("struct Access {", "ReadLimits (a folder's)"),
    ("struct Output {", "WriteQueue"),
    ("fn finish(", "a name for what each one finishes"),
    ("fn inner(", "methods that say what they give"),
    ("enum Seen", "Ended, built from the typed outcome"),
    (
        "struct Watch(Option",
        "Observation (a request's; a folder's is a Watch)",
    ),
    ("enum Wire", "Network"),
    ("struct HttpWire", "HttpNetwork"),
    (
        "enum Route",
        "Backchannel (a request's channel; a route is a way in)",
    ),
    ("enum Eventually", "NowOrLater"),
    ("enum Known", "Visibility"),
    ("struct Bridged", "SkillPrompts"),
    ("struct Named ", "NamedInParams"),
    ("struct Head ", "HeaderFacts"),
    ("enum Decided", "EraClaim"),
    ("struct Lent(", "LentPlace"),
    ("struct Culprit", "PanicSite"),
    ("struct Finishing", "CallParts"),
    ("fn returned(", "checked_outcome"),
    ("fn ender(", "closer"),
    ("type ClientAnswer", "ClientReply"),
    (
        "fn announces_changes",
        "is_live: whether the catalog can change",
    ),
    ("skills_watched", "skills_live"),
    ("type Outcome<", "Outcome, a request's typed outcome"),
    (
        "fn serve_stateless",
        "a request carries the era its route decided",
    ),
    ("fn serves_stateless", "Service::serves_in"),
    ("fn decide_with_head", "HTTP's HeaderFacts::read"),
    ("struct NamedInParams", "HTTP's HeaderFacts"),
    ("fn refused_over_http", "HTTP logs its own refusals"),
    ("fn has_annotations", "Content::annotations"),
    ("fn missing_form", "MissingForm"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, as (path, text).
fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.clone(), fs::read_to_string(&path).unwrap()));
        }
    }
}

fn crate_sources() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for krate in ["mcp-prompts", "mcp-prompts-macros", "mcp-prompts-template"] {
        sources(&root().join(krate).join("src"), &mut out);
    }
    out
}

/// The glossary section of ARCHITECTURE.md.
fn glossary() -> String {
    let text = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let start = text.find("## Glossary").expect("a glossary");
    let rest = &text[start + 1..];
    let end = rest.find("\n## ").map_or(rest.len(), |e| e + 1);
    rest[..end].to_owned()
}

/// The identifiers a glossary entry names: a backticked word, or the last
/// segment of a backticked path (`catalog::Kind`, `Service::get`).
fn named(glossary: &str) -> Vec<String> {
    let mut names = Vec::new();
    for quoted in glossary.split('`').skip(1).step_by(2) {
        let path = quoted
            .split(['(', '<', '!', '[', ' '])
            .next()
            .unwrap_or_default();
        let last = path.rsplit("::").next().unwrap_or_default();
        let is_ident = !last.is_empty()
            && last.chars().all(|c| c.is_alphanumeric() || c == '_')
            && last.chars().next().is_some_and(char::is_alphabetic);
        // Code names only: types, and functions written with `()`.
        let is_type = last.chars().next().is_some_and(char::is_uppercase) && last.len() > 1;
        let is_fn = quoted.ends_with("()");
        if is_ident && (is_type || is_fn) && !names.contains(&last.to_owned()) {
            names.push(last.to_owned());
        }
    }
    names
}

/// Whether `name` is defined (or re-exported under that name) somewhere.
fn defined(name: &str, sources: &[(PathBuf, String)]) -> bool {
    let forms = [
        format!("struct {name}"),
        format!("enum {name}"),
        format!("trait {name}"),
        format!("type {name}"),
        format!("fn {name}"),
        format!("macro_rules! {name}"),
        format!("as {name}"),
        format!("{name}("),
        format!("{name},"),
        format!("{name} {{"),
        format!("const {name}"),
    ];
    sources
        .iter()
        .any(|(_, text)| forms.iter().any(|form| text.contains(form.as_str())))
}

#[test]
fn every_name_in_the_glossary_is_in_the_code() {
    // The crates, and the tests that hold a rule the glossary names
    // (`LAYERS`).
    let mut code = crate_sources();
    sources(&root().join("tests"), &mut code);
    let names = named(&glossary());
    assert!(names.len() > 30, "the glossary names {names:?}");
    let missing: Vec<&String> = names.iter().filter(|n| !defined(n, &code)).collect();
    assert!(
        missing.is_empty(),
        "named in the glossary, defined nowhere: {missing:?}"
    );
}

#[test]
fn retired_names_stay_retired() {
    let mut found = Vec::new();
    for (path, text) in crate_sources() {
        for (retired, now) in RETIRED {
            for (n, line) in text.lines().enumerate() {
                if line.contains(retired) && !line.trim_start().starts_with("//") {
                    let at = path.strip_prefix(root()).unwrap().display();
                    found.push(format!("{at}:{}: `{retired}` (now: {now})", n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checks_fail_when_they_should() {
    let sources = vec![(
        PathBuf::from("a.rs"),
        "pub struct Kind;\nfn snapshot() {}\n".to_owned(),
    )];
    let names = named("* **Kind**: `catalog::Kind`, `snapshot()`, `Gone`, `lower`.");
    assert_eq!(names, ["Kind", "snapshot", "Gone"]);
    let missing: Vec<&String> = names.iter().filter(|n| !defined(n, &sources)).collect();
    assert_eq!(missing, ["Gone"]);
}
