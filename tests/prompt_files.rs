//! Prompt files with hot reload, over stdio: the showcase started with
//! `--prompts-dir` serves a directory's `*.md` prompts next to its own,
//! and a file added, edited, broken, fixed and deleted while a client is
//! connected is served (or not) and announced with `list_changed`.

mod http_support;
mod support;

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use http_support::showcase_binary;
use support::{Client, LATEST, texts};

const STANDUP: &str = r#"+++
title = "Daily standup"
description = "Summarize yesterday and plan today"

[[arguments]]
name = "yesterday"
description = "What you did yesterday"

[[arguments]]
name = "mood"
description = "How you feel"
required = false
default = "ok"
choices = ["great", "ok", "tired"]
+++
Yesterday I {yesterday}. Mood: {mood}.
--- assistant
Thanks. What is the plan for today?
"#;

fn listed(client: &mut Client) -> Vec<Value> {
    let listed = client.call("prompts/list", json!({}));
    listed["result"]["prompts"].as_array().unwrap().clone()
}

fn names(client: &mut Client) -> Vec<String> {
    listed(client)
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

fn start(dir: &Path) -> Client {
    let mut command = Command::new(showcase_binary());
    command.arg("--prompts-dir").arg(dir);
    let mut client = Client::start_program(command);
    let init = client.initialize(LATEST);
    assert_eq!(
        init["capabilities"]["prompts"],
        json!({"listChanged": true})
    );
    client
}

#[test]
fn a_directory_edited_while_serving_is_served_and_announced() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("standup.md");
    std::fs::write(&file, STANDUP).unwrap();
    let mut client = start(dir.path());
    let showcase = names(&mut client).len() - 1;

    // The file's prompt, as any other: listing, choices, defaults, errors.
    let standup = listed(&mut client)
        .into_iter()
        .find(|p| p["name"] == "standup")
        .expect("standup is listed");
    assert_eq!(standup["title"], "Daily standup");
    assert_eq!(standup["arguments"][0]["required"], true);
    assert_eq!(
        standup["arguments"][1]["description"],
        "How you feel (one of: great, ok, tired; default: ok)"
    );
    let got = client.get("standup", json!({"yesterday": "shipped"}));
    assert_eq!(
        texts(&got),
        [
            "Yesterday I shipped. Mood: ok.",
            "Thanks. What is the plan for today?"
        ]
    );
    let bad = client.get("standup", json!({"yesterday": "x", "mood": "sad"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(
        bad["error"]["data"]["choices"],
        json!(["great", "ok", "tired"])
    );
    let missing = client.get("standup", json!({}));
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    let completed = client.call(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "standup"}, "argument": {"name": "mood", "value": "g"}}),
    );
    assert_eq!(
        completed["result"]["completion"]["values"],
        json!(["great"])
    );

    // Added.
    std::fs::write(
        dir.path().join("retro.md"),
        "+++\ndescription = \"Run a retro\"\n+++\nWhat went well?",
    )
    .unwrap();
    client.assert_list_changed();
    assert!(names(&mut client).contains(&"retro".to_owned()));
    assert_eq!(texts(&client.get("retro", json!({}))), ["What went well?"]);

    // Edited.
    std::fs::write(&file, STANDUP.replace("Mood: {mood}.", "Feeling {mood}.")).unwrap();
    client.assert_list_changed();
    let got = client.get("standup", json!({"yesterday": "shipped", "mood": "GREAT"}));
    assert_eq!(texts(&got)[0], "Yesterday I shipped. Feeling great.");

    // Broken: not served, reported with its path and line; the rest stays.
    std::fs::write(&file, STANDUP.replace("Mood: {mood}", "Mood: {mod}")).unwrap();
    client.assert_list_changed();
    let now = names(&mut client);
    assert!(!now.contains(&"standup".to_owned()), "{now:?}");
    assert_eq!(now.len(), showcase + 1, "{now:?}");
    let gone = client.get("standup", json!({"yesterday": "x"}));
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
    let reported = format!(
        "{}:16: placeholder `{{mod}}` names no argument",
        file.display()
    );
    client.log_line(&reported);

    // Fixed.
    std::fs::write(&file, STANDUP).unwrap();
    client.assert_list_changed();
    assert!(names(&mut client).contains(&"standup".to_owned()));

    // Deleted, and a duplicate name refused while the first file serves it.
    std::fs::write(
        dir.path().join("zz_standup.md"),
        STANDUP.replacen("+++\n", "+++\nname = \"retro\"\n", 1),
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    std::fs::remove_file(dir.path().join("retro.md")).unwrap();
    client.assert_list_changed();
    // The duplicate now serves `retro`: its own text, not the deleted one's.
    let retro = client.get("retro", json!({"yesterday": "rested"}));
    assert_eq!(texts(&retro)[0], "Yesterday I rested. Mood: ok.");
    client.log_line("zz_standup.md: prompt name `retro` is already taken by");
    std::fs::remove_file(&file).unwrap();
    client.assert_list_changed();
    assert!(!names(&mut client).contains(&"standup".to_owned()));
}

#[test]
fn a_file_may_not_take_a_name_the_server_already_serves() {
    let dir = tempfile::tempdir().unwrap();
    // `greet` is one of the showcase's own prompts.
    std::fs::write(dir.path().join("greet.md"), "+++\n+++\nHello").unwrap();
    std::fs::write(dir.path().join("hello.md"), "+++\n+++\nHello").unwrap();
    let mut client = start(dir.path());
    let greet = client.get("greet", json!({"name": "Ann"}));
    assert_ne!(texts(&greet)[0], "Hello");
    assert_eq!(texts(&client.get("hello", json!({})))[0], "Hello");
    // The problem names both: the file, and where the showcase defines
    // its `greet`.
    let line = client.log_line("greet.md: prompt name `greet` is already taken by ");
    assert!(line.contains("examples/showcase/prompts.rs:"), "{line}");
}

/// A directory that is itself an Agent Skill (here one limited to a scope)
/// serves none of its files as a prompt: not its `SKILL.md`, whose `name`
/// would name a prompt handing anyone the instructions the scope hides,
/// nor its other Markdown.
#[test]
fn a_directory_that_is_a_skill_serves_no_prompt_file() {
    let dir = tempfile::tempdir().unwrap();
    let skill = "---\nname: vault\ndescription: Secrets\nmetadata:\n  mcp-prompts/scopes: finance\n---\nThe vault's steps.\n";
    std::fs::write(dir.path().join("SKILL.md"), skill).unwrap();
    std::fs::write(dir.path().join("steps.md"), "More of the vault's steps.").unwrap();
    let mut client = start(dir.path());
    let served = names(&mut client);
    for name in ["vault", "SKILL", "steps"] {
        assert!(!served.contains(&name.to_owned()), "{served:?}");
        let got = client.get(name, json!({}));
        assert_eq!(got["error"]["code"], -32602, "{name}: {got}");
    }
}

/// The names listed, read past the `list_changed` announcements that the
/// directory's changes send meanwhile.
fn names_amid_announcements(client: &mut Client, id: u64) -> Vec<String> {
    client.send_line(&json!({"jsonrpc": "2.0", "id": id, "method": "prompts/list"}).to_string());
    loop {
        let message = client.read();
        if message["method"] == "notifications/prompts/list_changed" {
            continue;
        }
        assert_eq!(message["id"], id, "{message}");
        return message["result"]["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect();
    }
}

/// Files that would hold or burst the loader are reported, not served:
/// a FIFO (opening one for reading waits for a writer), a symbolic link
/// swapped between a file and a FIFO, a file over the size limit, and a
/// link leading outside the directory. The loader goes on serving files
/// added later, and the server exits at the end of its input.
#[cfg(unix)]
#[test]
fn files_that_could_block_or_burst_the_loader_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("prompts");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("good.md"), "+++\n+++\nGood").unwrap();
    std::fs::write(root.path().join("secret.md"), "+++\n+++\nSecret").unwrap();
    std::os::unix::fs::symlink(root.path().join("secret.md"), dir.join("outside.md")).unwrap();
    let big = format!("+++\n+++\n{}", "x".repeat(2 * 1024 * 1024));
    std::fs::write(dir.join("big.md"), big).unwrap();
    let mkfifo = |path: &Path| {
        let made = Command::new("mkfifo").arg(path).status().unwrap();
        assert!(made.success());
    };
    mkfifo(&dir.join("fifo.md"));
    mkfifo(&root.path().join("pipe"));
    std::os::unix::fs::symlink(dir.join("good.md"), dir.join("swapped.md")).unwrap();

    let mut client = start(&dir);
    assert_eq!(
        names_amid_announcements(&mut client, 999)
            .iter()
            .filter(|n| n.as_str() == "good")
            .count(),
        1
    );
    // The link now leads to a FIFO: the next reload must not hang on it.
    std::fs::remove_file(dir.join("swapped.md")).unwrap();
    std::os::unix::fs::symlink(root.path().join("pipe"), dir.join("swapped.md")).unwrap();
    std::fs::write(dir.join("later.md"), "+++\n+++\nLater").unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut served = Vec::new();
    for id in 1000.. {
        served = names_amid_announcements(&mut client, id);
        if served.contains(&"later".to_owned()) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the loader stopped");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    for refused in ["outside", "big", "fifo", "swapped"] {
        assert!(
            !served.contains(&refused.to_owned()),
            "{refused} served: {served:?}"
        );
    }
    for (file, why) in [
        ("outside.md", "outside the directory"),
        ("big.md", "larger than the limit of 1048576 bytes"),
        ("fifo.md", "not a regular file"),
    ] {
        let line = client.log_line(file);
        assert!(line.contains(why), "{line}");
    }
    let (_, status) = client.finish();
    assert!(status.success(), "{status}");
}

/// A Claude Code commands folder and a VS Code prompts folder, as those
/// tools keep them, served as they are.
#[test]
fn other_tools_folders_are_served_as_they_are() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut claude = start(&examples.join("claude-commands"));
    let prompts = listed(&mut claude);
    let review = prompts.iter().find(|p| p["name"] == "review-pr").unwrap();
    assert_eq!(review["description"], "Review a pull request");
    // A command with no front matter is described by its first line, as
    // Claude Code shows it (heading marks stripped).
    let explain = prompts
        .iter()
        .find(|p| p["name"] == "explain-code")
        .unwrap();
    assert_eq!(explain["description"], "Explain the code in plain words");
    assert_eq!(
        review["arguments"],
        json!([{"name": "pr-number", "required": true}, {"name": "focus", "required": false}])
    );
    let commit = claude.get(
        "git.commit",
        json!({"arguments": "the parser reads CRLF files"}),
    );
    assert!(
        texts(&commit)[0]
            .starts_with("Write a commit message for these changes: the parser reads CRLF files"),
        "{commit}"
    );
    let mut vscode = start(&examples.join("vscode-prompts"));
    let tests = vscode.get("write-tests", json!({"function": "parse_file"}));
    assert!(
        texts(&tests)[0].starts_with("Write unit tests for parse_file, covering"),
        "{tests}"
    );
    assert!(texts(&tests)[0].contains("${file}"), "{tests}");

    let mut dotprompt = start(&examples.join("dotprompt"));
    let prompts = listed(&mut dotprompt);
    let explain = prompts.iter().find(|p| p["name"] == "explain").unwrap();
    assert_eq!(
        explain["arguments"],
        json!([
            {"name": "code", "description": "the code to explain", "required": true},
            {"name": "language", "description": "its programming language", "required": false},
            {"name": "level", "description": "who the explanation is for (one of: beginner, expert; default: beginner)", "required": false},
            {"name": "focus", "description": "parts to dwell on (a JSON array of strings)", "required": false},
        ])
    );
    assert!(
        !prompts.iter().any(|p| p["name"] == "persona"),
        "{prompts:?}"
    );
    let got = dotprompt.get(
        "explain",
        json!({"code": "a <b>", "language": "HTML", "focus": "[\"tags\"]"}),
    );
    let got = texts(&got);
    assert!(got[0].contains("plainly and briefly"), "{got:?}");
    assert_eq!(
        got[1],
        "\nExplain this HTML code to a beginner:\n\na <b>\n\nDwell on:\n0. tags\n"
    );
    let bad = dotprompt.call(
        "prompts/get",
        json!({"name": "explain", "arguments": {"code": "x", "level": "guru"}}),
    );
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let completion = dotprompt.call(
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "explain"}, "argument": {"name": "level", "value": "ex"}}),
    );
    assert_eq!(
        completion["result"]["completion"]["values"],
        json!(["expert"])
    );
}

/// Our own files' conditional sections: `{#issue}` shows only when the
/// optional argument is sent.
#[test]
fn a_toml_files_sections_follow_its_optional_arguments() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut client = start(&examples.join("prompt-files"));
    let with = client.get("commit_message", json!({"diff": "+fn x()", "issue": "#12"}));
    assert!(
        texts(&with)[0].contains("not what.\nEnd with a line `Closes #12`.\n\n+fn x()"),
        "{with}"
    );
    let without = client.get("commit_message", json!({"diff": "+fn x()"}));
    assert!(
        texts(&without)[0].contains("not what.\n\n+fn x()"),
        "{without}"
    );
}
