//! Prompt folders made to hurt the server, each served by a real
//! `mcp-prompts serve DIR` process over stdio, so that a regression fails
//! one test rather than killing the test binary: templates nested every
//! way Handlebars allows (and across partials), a long `else if` chain and
//! YAML bombs dropped in while serving, a template that multiplies its
//! arguments or loops over them in silence, unreadable folders, and a
//! file named to forge a log line. The server answers throughout.
// Call sites read better passing `json!` values by value.
#![allow(clippy::needless_pass_by_value)]

mod served;

use std::fmt::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;
use served::{Served, folder};

fn nested(open: &str, levels: usize, close: &str, inner: &str) -> String {
    format!("{}{inner}{}", open.repeat(levels), close.repeat(levels))
}

#[test]
fn templates_nested_every_way_are_refused_on_their_line() {
    let dir = folder("nesting");
    // The review's reproducers: deep enough to overflow a worker's stack
    // when rendered, each in a form the old check did not count.
    let files = [
        (
            "spaced.prompt",
            format!("Hi\n{}", nested("{{ #if a}}", 300, "{{ /if}}", "{{a}}")),
        ),
        (
            "tilde.prompt",
            format!(
                "Hi\n{}",
                nested("{{~ #unless a}}", 300, "{{~ /unless}}", "x")
            ),
        ),
        (
            "many.prompt",
            format!("Hi\n{}", nested("{{ #if a}}", 1500, "{{ /if}}", "{{a}}")),
        ),
        (
            "chain.prompt",
            format!(
                "Hi\n{{{{#if a}}}}x{}{{{{/if}}}}",
                "{{else if b}}y".repeat(900)
            ),
        ),
        // One tag, its subexpressions nested past the parser's own
        // stack guard.
        (
            "parens.prompt",
            format!("Hi\n{{{{a {}}}}}", nested("(a ", 20_000, ")", "b")),
        ),
        (
            "brackets.prompt",
            format!(
                "Hi\n{{{{#if {}}}}}x{{{{/if}}}}",
                nested("[", 20_000, "]", "b")
            ),
        ),
        (
            "split.prompt",
            format!("Hi\n{}", nested("{{#if a}}", 60, "{{/if}}", "{{> p0}}")),
        ),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    // Sixteen partials of 60 levels, each including the next.
    for i in 0..16 {
        let inner = if i == 15 {
            "end".to_owned()
        } else {
            format!("{{{{> p{}}}}}", i + 1)
        };
        std::fs::write(
            dir.join(format!("_p{i}.prompt")),
            nested("{{#if a}}", 60, "{{/if}}", &inner),
        )
        .unwrap();
    }
    let mut served = Served::serve(&dir, &[]);
    let said = served.said();
    for (name, _) in &files {
        assert!(said.contains(&format!("{name}:2: ")), "{name}: {said}");
        let got = served.get(
            name.trim_end_matches(".prompt"),
            json!({"a": "yes", "b": "1"}),
        );
        assert_eq!(got["error"]["code"], -32602, "{name}: {got}");
    }
    assert!(said.contains("nests more than 64 deep"), "{said}");
    assert!(said.contains("more than 1000 tags"), "{said}");
    assert!(said.contains("stack limit reached"), "{said}");
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_dropped_in_while_serving_cannot_stop_the_server() {
    let dir = folder("dropped");
    let mut served = Served::serve(&dir, &[]);
    // A 20,000-link chain: compiling it alone took a minute, then its
    // analysis overflowed the loader's stack.
    let chain = format!(
        "{{{{#if a}}}}x{}{{{{/if}}}}",
        "{{else if b}}y".repeat(20_000)
    );
    std::fs::write(dir.join("chain.prompt"), chain).unwrap();
    // YAML: an anchored list referenced by every item of the next, under
    // a key another tool reads; and flow nesting, quadratic to parse.
    let mut bomb = String::from("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (name, before) in ["b", "c", "d", "e", "f", "g"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f"])
    {
        let aliases = vec![format!("*{before}"); 10].join(", ");
        writeln!(bomb, "{name}: &{name} [{aliases}]").unwrap();
    }
    let bomb = bomb.replace("g: &g", "metadata:") + "---\nBoom.";
    std::fs::write(dir.join("bomb.md"), bomb).unwrap();
    let deep = format!(
        "---\nmetadata: {}{}\n---\nDeep.",
        "[".repeat(20_000),
        "]".repeat(20_000)
    );
    std::fs::write(dir.join("deep.md"), deep).unwrap();
    for problem in [
        "chain.prompt:1: the template has more than 1000 tags",
        "bomb.md:",
        "deep.md:",
    ] {
        served.wait_for(problem, Duration::from_secs(20));
    }
    let said = served.said();
    assert!(said.contains("more than 10000 values"), "{said}");
    assert!(said.contains("more than 256 `[`"), "{said}");
    assert_eq!(served.names(), ["ok"]);
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_template_that_multiplies_its_arguments_stops_at_the_cap() {
    let dir = folder("amplify");
    let pairs = "---\ninput:\n  schema:\n    files(array): string\n---\n{{#each files}}{{#each @root.files}}{{this}} {{/each}}{{/each}}";
    std::fs::write(dir.join("pairs.prompt"), pairs).unwrap();
    std::fs::write(
        dir.join("echo.md"),
        "+++\n[[arguments]]\nname = \"text\"\n+++\n{text}{text}{text}{text}",
    )
    .unwrap();
    let mut served = Served::serve(
        &dir,
        &["--max-result-bytes", "1048576", "--prompts-as-tools"],
    );
    // 30 KB asking for 300 x 300 items of 100 bytes: 9 MB.
    let files: Vec<String> = (0..300).map(|i| format!("{i:0>100}")).collect();
    let files = serde_json::to_string(&files).unwrap();
    let start = Instant::now();
    let refused = served.get("pairs", json!({"files": files}));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("limit of 1048576 bytes"), "{message}");
    assert_eq!(refused["error"]["data"]["limit"], 1_048_576);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // Our template syntax repeats a value as often as it is written.
    let text = "x".repeat(300_000);
    let echoed = served.get("echo", json!({"text": text}));
    assert_eq!(echoed["error"]["code"], -32602, "{echoed}");
    // A prompt tool's call: an error result the model can read.
    let call = json!({"name": "get_prompt", "arguments": {"name": "pairs", "arguments": {"files": files}}});
    let tool = served.call("tools/call", call);
    assert_eq!(tool["result"]["isError"], true, "{tool}");
    let said = tool["result"]["content"][0]["text"].as_str().unwrap();
    assert!(said.contains("limit of 1048576 bytes"), "{said}");
    // Asking for less is answered.
    let few = served.get("pairs", json!({"files": "[\"a\", \"b\"]"}));
    assert_eq!(few["result"]["messages"][0]["content"]["text"], "a b a b ");
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_template_that_loops_in_silence_stops_at_the_bound() {
    let dir = folder("silent-loops");
    let silent = "---\ninput:\n  schema:\n    files(array): string\n---\nDone.{{#each files}}{{#each @root.files}}{{/each}}{{/each}}";
    std::fs::write(dir.join("silent.prompt"), silent).unwrap();
    let mut served = Served::serve(&dir, &[]);
    // 40 KB asking for 10,000 x 10,000 iterations that write nothing.
    let files = serde_json::to_string(&vec![""; 10_000]).unwrap();
    let start = Instant::now();
    let refused = served.get("silent", json!({"files": files}));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("more than 100000 times"), "{message}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // Loops within the bound are rendered.
    let few = serde_json::to_string(&vec![""; 300]).unwrap();
    let done = served.get("silent", json!({"files": few}));
    assert_eq!(done["result"]["messages"][0]["content"]["text"], "Done.");
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether this process runs as root, whom permission bits do not stop.
#[cfg(unix)]
fn is_root() -> bool {
    let id = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&id.stdout).trim() == "0"
}

#[cfg(unix)]
#[test]
fn unreadable_folders_are_warnings_and_the_start_goes_on() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = folder("unreadable");
    let hidden = dir.join(".cache/a/b/c/d/e");
    std::fs::create_dir_all(&hidden).unwrap();
    std::fs::create_dir_all(dir.join("locked")).unwrap();
    std::fs::write(dir.join("locked/secret.md"), "Secret.").unwrap();
    for locked in [&hidden, &dir.join("locked")] {
        std::fs::set_permissions(locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    // As root, permission bits do not stop reads: the server runs as
    // `nobody`, for whom the folder and the binary must be readable.
    let command = if is_root() {
        for open in [&dir, &std::env::temp_dir()] {
            let mode = std::fs::metadata(open).unwrap().permissions().mode();
            std::fs::set_permissions(open, std::fs::Permissions::from_mode(mode | 0o755)).unwrap();
        }
        let mut setpriv = Command::new("setpriv");
        setpriv
            .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"])
            .arg(env!("CARGO_BIN_EXE_mcp-prompts"));
        setpriv
    } else {
        Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
    };
    let mut served = Served::start(command, &dir, &[]);
    let said = served.said();
    assert!(said.contains("locked: cannot read the folder"), "{said}");
    assert!(said.contains("with 1 warning"), "{said}");
    served.answers();
    drop(served);
    for locked in [&hidden, &dir.join("locked")] {
        std::fs::set_permissions(locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_file_name_cannot_forge_a_log_line() {
    let dir = folder("log");
    let name = "new\nline FAKE ERROR \u{202e}dm.md";
    std::fs::write(dir.join(name), "+++\ntitle = oops\n+++\nx").unwrap();
    let mut served = Served::serve(&dir, &[]);
    let said = served.said();
    assert!(
        said.contains(r"new\nline FAKE ERROR \u{202e}dm.md:2: front matter"),
        "{said}"
    );
    assert!(
        !said.lines().any(|line| line.starts_with("line FAKE")),
        "{said}"
    );
    assert!(!said.contains('\u{202e}'), "{said}");
    served.answers();
    let _ = std::fs::remove_dir_all(&dir);
}
