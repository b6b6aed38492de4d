//! The catalog as a contract, as a user runs it: `catalog` and `list` of
//! folders in every file format, `diff` of two folders or catalog files in
//! each format with each exit code, and `check --against`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// An empty folder of this test's own.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-prompts-contract-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `mcp-prompts ARGS...`: exit code, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn path(dir: &Path) -> &str {
    dir.to_str().unwrap()
}

/// One prompt in each format the CLI reads, and a skill.
fn before(dir: &Path) {
    write(
        dir,
        "review.md",
        "+++\ntitle = \"Review\"\n\n[[arguments]]\nname = \"code\"\n\n[[arguments]]\nname = \"tone\"\nrequired = false\nchoices = [\"kind\", \"blunt\"]\n+++\nReview {code}{#tone}, {tone}{/tone}.\n",
    );
    write(
        dir,
        "fix.md",
        "---\ndescription: Fix an issue\nargument-hint: <issue> [area]\n---\nFix issue $1 in $2.\n",
    );
    write(
        dir,
        "tests.prompt.md",
        "---\ndescription: Write tests\n---\nTest ${input:function:The function}.\n",
    );
    write(
        dir,
        "count.prompt",
        "---\ninput:\n  schema:\n    things: string\n    n?: number, how many\n---\nList {{n}} {{things}}.\n",
    );
    write(
        dir,
        "skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Take notes\n---\nTake notes.\n",
    );
}

/// The same folder, each format changed: a choice removed (ours), an
/// optional argument made required and a required one added (Claude
/// Code), a prompt removed (VS Code), an optional number made a required
/// integer (dotprompt), a prompt added, a skill's file changed.
fn after(dir: &Path) {
    before(dir);
    write(
        dir,
        "review.md",
        "+++\ntitle = \"Code review\"\n\n[[arguments]]\nname = \"code\"\n\n[[arguments]]\nname = \"tone\"\nrequired = false\nchoices = [\"kind\"]\n+++\nReview {code}{#tone}, {tone}{/tone}.\n",
    );
    write(
        dir,
        "fix.md",
        "---\ndescription: Fix an issue\nargument-hint: <issue> <area> <owner>\n---\nFix issue $1 in $2 for $3.\n",
    );
    std::fs::remove_file(dir.join("tests.prompt.md")).unwrap();
    write(
        dir,
        "count.prompt",
        "---\ninput:\n  schema:\n    things: string\n    n: integer, how many\n---\nList {{n}} {{things}}.\n",
    );
    write(dir, "plan.md", "Plan the week.\n");
    write(
        dir,
        "skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Take notes\n---\nTake short notes.\n",
    );
}

#[test]
fn catalog_prints_every_format_deterministically_and_list_names_them() {
    let dir = folder("catalog");
    before(&dir);
    let (code, first, err) = run(&["catalog", path(&dir)]);
    assert_eq!(code, 0, "{err}");
    let (_, second, _) = run(&["catalog", path(&dir)]);
    assert_eq!(first, second, "the same catalog, the same bytes");
    let catalog: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(catalog["catalog"], 1);
    let names: Vec<&str> = catalog["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["count", "fix", "review", "tests"]);
    let review = &catalog["prompts"][2];
    assert_eq!(review["title"], "Review");
    assert_eq!(
        review["arguments"][1]["choices"],
        serde_json::json!(["kind", "blunt"])
    );
    assert_eq!(review["arguments"][1]["required"], false);
    let count = &catalog["prompts"][0]["arguments"][1];
    assert_eq!(
        (count["name"].as_str(), count["type"].as_str()),
        (Some("n"), Some("number"))
    );
    let skill = &catalog["skills"][0];
    assert_eq!(skill["uri"], "skill://skills/notes");
    assert_eq!(skill["files"][0]["path"], "SKILL.md");
    assert!(
        skill["files"][0]["digest"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );

    let (code, listed, _) = run(&["list", path(&dir)]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(
        lines,
        [
            "count  things  n?",
            "fix  issue  area?",
            "review  Review  code  tone?",
            "tests  function",
            "skill://skills/notes  Take notes",
        ]
    );
}

#[test]
fn diff_classifies_each_change_and_exits_1_on_a_breaking_one() {
    let (old, new) = (folder("old"), folder("new"));
    before(&old);
    after(&new);
    let (code, text, err) = run(&["diff", path(&old), path(&new)]);
    assert_eq!(code, 1, "{text}{err}");
    let kinds: Vec<&str> = text
        .lines()
        .map(|line| line.split(": ").take(2).collect::<Vec<_>>()[1])
        .collect();
    assert_eq!(
        kinds,
        [
            "argument-now-required",
            "argument-type-changed",
            "argument-now-required",
            "argument-added",
            "choice-removed",
            "prompt-removed",
            "prompt-added",
            "title-changed",
            "skill-changed",
        ],
        "{text}"
    );
    // Breaking first, each naming where the new definition is.
    assert!(
        text.lines().next().unwrap().starts_with("breaking: "),
        "{text}"
    );
    assert!(text.contains("count.prompt)"), "{text}");

    let (code, json, _) = run(&["diff", path(&old), path(&new), "--format", "json"]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&json).unwrap();
    let removed = &report["breaking"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "choice-removed")
        .unwrap();
    assert_eq!(
        (
            removed["prompt"].as_str(),
            removed["argument"].as_str(),
            removed["choice"].as_str()
        ),
        (Some("review"), Some("tone"), Some("blunt"))
    );
    assert_eq!(report["compatible"][0]["kind"], "prompt-added");
    assert_eq!(report["info"].as_array().unwrap().len(), 2);

    let (code, github, _) = run(&["diff", path(&old), path(&new), "--format", "github"]);
    assert_eq!(code, 1);
    assert_eq!(
        github
            .lines()
            .filter(|l| l.starts_with("::error title="))
            .count(),
        6,
        "{github}"
    );
    assert_eq!(
        github
            .lines()
            .filter(|l| l.starts_with("::notice title="))
            .count(),
        3,
        "{github}"
    );
    assert!(github.contains("file="), "{github}");

    let (code, _, _) = run(&["diff", path(&old), path(&new), "--allow-breaking"]);
    assert_eq!(code, 0);
}

#[test]
fn diff_of_catalog_files_and_of_a_catalog_with_itself() {
    let dir = folder("files");
    before(&dir);
    let (_, catalog, _) = run(&["catalog", path(&dir)]);
    let lock = dir.join("prompts.lock.json");
    std::fs::write(&lock, &catalog).unwrap();
    let (code, out, err) = run(&["diff", lock.to_str().unwrap(), path(&dir)]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    // Only compatible changes: exit 0, and said.
    write(&dir, "extra.md", "More.\n");
    let (code, out, _) = run(&["diff", lock.to_str().unwrap(), path(&dir)]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "compatible: prompt-added: prompt `extra` was added (".to_owned()
            + &dir.join("extra.md").display().to_string()
            + ")\n"
    );
}

#[test]
fn unreadable_input_exits_2() {
    let dir = folder("unreadable");
    before(&dir);
    let missing = dir.join("missing.json");
    let (code, _, err) = run(&["diff", missing.to_str().unwrap(), path(&dir)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing.json"), "{err}");
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "{\"catalog\": 1, \"prompts\": 3}").unwrap();
    let (code, _, err) = run(&["diff", garbage.to_str().unwrap(), path(&dir)]);
    assert_eq!(code, 2);
    assert!(err.contains("not a catalog document"), "{err}");
    let (code, _, err) = run(&["check", path(&dir), "--against", garbage.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn check_against_a_committed_catalog_fails_on_a_breaking_change_in_every_format() {
    let (old, new) = (folder("shipped"), folder("changed"));
    before(&old);
    after(&new);
    let (_, catalog, _) = run(&["catalog", path(&old)]);
    let lock = old.join("prompts.lock.json");
    std::fs::write(&lock, catalog).unwrap();
    let against = lock.to_str().unwrap();
    let (code, out, err) = run(&["check", path(&old), "--against", against]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let (code, out, _) = run(&["check", path(&new), "--against", against]);
    assert_eq!(code, 1);
    assert!(
        out.contains("breaking: prompt-removed: prompt `tests` was removed"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "check",
        path(&new),
        "--against",
        against,
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["contract"]["breaking"].as_array().unwrap().len(),
        6,
        "{report}"
    );
    assert_eq!(report["problems"], serde_json::json!([]));
    let (code, out, _) = run(&[
        "check",
        path(&new),
        "--against",
        against,
        "--format",
        "github",
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("::error title=prompt-removed::prompt `tests` was removed"),
        "{out}"
    );
    let (code, _, _) = run(&[
        "check",
        path(&new),
        "--against",
        against,
        "--allow-breaking",
    ]);
    assert_eq!(code, 0);
}

/// A title holding a line break and a workflow command stays on its
/// change's line in every format: it forges no annotation in CI.
#[test]
fn a_name_cannot_forge_a_line_or_an_annotation() {
    let (old, new) = (folder("plain"), folder("forged"));
    write(&old, "p.md", "+++\ntitle = \"a\"\n+++\nHi.\n");
    write(
        &new,
        "p.md",
        "+++\ntitle = \"b\\n::error::forged\"\n+++\nHi.\n",
    );
    for format in ["text", "github"] {
        let (code, out, _) = run(&["diff", path(&old), path(&new), "--format", format]);
        assert_eq!(code, 0);
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(!out.contains("\n::error::"), "{out}");
    }
}
