//! `mcp-prompts serve DIR`, run as a user runs it: a folder of a Claude
//! Code command, a VS Code prompt file and a broken file, served over
//! stdio to a client that lists and gets; the broken file reported at
//! start with its path and line.
// Call sites read better passing `json!` values by value.
#![allow(clippy::needless_pass_by_value)]

mod served;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, Command, Stdio};

use serde_json::{Value, json};
use served::Served;

/// `mcp-prompts serve DIR` on piped stdio, once it says it is serving:
/// the process, the rest of its stderr, and what it said until then.
fn serve(dir: &std::path::Path) -> (Child, BufReader<ChildStderr>, String) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
        .args(["serve", dir.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stderr = BufReader::new(server.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("serving") {
        assert_ne!(stderr.read_line(&mut said).unwrap(), 0, "it ended: {said}");
    }
    (server, stderr, said)
}

#[test]
fn serves_a_folder_of_prompt_files_over_stdio() {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("git")).unwrap();
    let command = "---\ndescription: Fix an issue\nargument-hint: <issue>\n---\nFix issue $1.\n";
    std::fs::write(dir.join("git/fix.md"), command).unwrap();
    std::fs::write(dir.join("tests.prompt.md"), "Test ${input:target}").unwrap();
    std::fs::write(dir.join("broken.md"), "+++\ntitle = oops\n+++\nx").unwrap();

    let (mut server, mut stderr, said) = serve(&dir);
    assert!(said.contains("not served: "), "{said}");
    assert!(said.contains("broken.md:2: front matter"), "{said}");
    assert!(
        said.contains("serving 2 prompts (1 file not served"),
        "{said}"
    );
    // What it logs later must not fill the pipe.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));

    let mut stdin = server.stdin.take().unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let mut call = |id: u64, method: &str, params: Value| -> Value {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{request}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": {"name": "cli-test", "version": "1"}});
    let ready = call(1, "initialize", init);
    assert_eq!(ready["result"]["serverInfo"]["name"], "mcp-prompts");
    let list = call(2, "prompts/list", json!({}));
    let names: Vec<&str> = list["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["git.fix", "tests"]);
    let fix = call(
        3,
        "prompts/get",
        json!({"name": "git.fix", "arguments": {"issue": "42"}}),
    );
    assert_eq!(
        fix["result"]["messages"][0]["content"]["text"],
        "Fix issue 42."
    );
    let missing = call(4, "prompts/get", json!({"name": "tests"}));
    assert_eq!(missing["error"]["code"], -32602, "{missing}");

    drop(stdin);
    assert!(server.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn sigterm_stops_it_serving_stdio_with_exit_0() {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-cli-term-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hello.md"), "Say hello.").unwrap();
    let (mut server, _stderr, _) = serve(&dir);
    // Stdin stays open: only the signal can end it.
    let _stdin = server.stdin.take();
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(server.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mistaken_command_line_is_explained() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
        .args(["serve", "--stateless"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // What is missing, the command's usage, and where to read more.
    assert!(stderr.contains("--http"), "{stderr}");
    assert!(stderr.contains("Usage: mcp-prompts serve"), "{stderr}");
    assert!(stderr.contains("--help"), "{stderr}");
    // A misspelt command gets the nearest one.
    let (code, _, err) = command("serv", &["prompts"]);
    assert_eq!(code, 2);
    assert!(err.contains("similar") && err.contains("serve"), "{err}");
}

/// Each command has a `--help` of its own, with its options, on stdout and
/// exit 0; `--version` says the binary's name and version.
#[test]
fn each_command_has_its_own_help() {
    for (command, options) in [
        (
            "serve",
            &[
                "--http",
                "--stateless",
                "--playground",
                "--auth-issuer",
                "--max-unsent-bytes",
                "RUST_LOG",
            ][..],
        ),
        (
            "check",
            &[
                "--deny-warnings",
                "--format",
                "github",
                "--skills-as-prompts",
                "--against",
                "--allow-breaking",
            ][..],
        ),
        ("catalog", &["DIR", "JSON document"][..]),
        ("list", &["DIR", "optional"][..]),
        (
            "diff",
            &[
                "OLD",
                "NEW",
                "--allow-breaking",
                "--format",
                "argument-now-required",
                "skill-changed",
            ][..],
        ),
        (
            "render",
            &["--dir", "--answer", "--matrix", "--raw", "ARG=VALUE"][..],
        ),
        ("completions", &["bash", "zsh", "fish"][..]),
    ] {
        let (code, out, err) = self::command(command, &["--help"]);
        assert_eq!(code, 0, "{command}: {err}");
        assert!(
            out.contains(&format!("Usage: mcp-prompts {command}")),
            "{out}"
        );
        for option in options {
            assert!(
                out.contains(option),
                "{command} --help lacks {option}: {out}"
            );
        }
    }
    let (code, out, _) = command("--version", &[]);
    assert_eq!(
        (code, out.trim()),
        (0, concat!("mcp-prompts ", env!("CARGO_PKG_VERSION")))
    );
    // No command at all: the help, and exit 0.
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("Commands:"));
}

/// `completions SHELL` prints a script that shell reads: bash's defines
/// the completion function and names each command.
#[test]
fn completions_are_printed_for_each_shell() {
    let (code, out, err) = command("completions", &["bash"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("complete -F"), "{out}");
    for word in ["serve", "check", "render", "--http", "--deny-warnings"] {
        assert!(out.contains(word), "bash completion lacks {word}");
    }
    // bash itself reads it without a complaint.
    let checked = Command::new("bash")
        .args(["-n", "-c", &out])
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = command("completions", &[shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains("mcp-prompts"), "{shell}: {out}");
    }
    let (code, _, err) = command("completions", &["tcsh"]);
    assert_eq!(code, 2);
    assert!(err.contains("tcsh"), "{err}");
}

/// `--help` names every kind of prompt file with an example of its name.
#[test]
fn help_lists_every_kind_of_file() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    for kind in [
        "review.md          ours",
        "fix-issue.md       a Claude Code command",
        "tests.prompt.md    a VS Code prompt file",
        "explain.prompt     a dotprompt file",
        "_persona.prompt    a dotprompt partial",
        "SKILL.md",
    ] {
        assert!(help.contains(kind), "{kind}: {help}");
    }
}

/// A folder under the system's temporary one, empty, named for the test.
fn folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `mcp-prompts COMMAND ARGS...` with stdin closed (no terminal): exit
/// code, stdout, stderr.
fn command(command: &str, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
        .arg(command)
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

/// `mcp-prompts check ARGS...`.
fn check(args: &[&str]) -> (i32, String, String) {
    command("check", args)
}

#[test]
fn check_prints_each_problem_and_warning_in_every_format() {
    let dir = folder("check");
    std::fs::write(
        dir.join("good.md"),
        "+++\ndescription = \"Fine\"\n+++\nHello",
    )
    .unwrap();
    std::fs::write(dir.join("broken.md"), "+++\ntitle = oops\n+++\nx").unwrap();
    // A Claude Code command with a `{{name}}`: served as written, warned of.
    std::fs::write(
        dir.join("greet.md"),
        "---\ndescription: Greet\n---\nHello {{name}}",
    )
    .unwrap();
    let path = dir.to_str().unwrap();

    let (code, out, err) = check(&[path]);
    assert_eq!(code, 1, "{out}{err}");
    let broken = format!("{}:2: front matter", dir.join("broken.md").display());
    assert!(out.lines().any(|l| l.starts_with(&broken)), "{out}");
    let warned = format!("{}:", dir.join("greet.md").display());
    assert!(
        out.lines()
            .any(|l| l.starts_with(&warned) && l.contains("warning: ")),
        "{out}"
    );
    assert!(!out.contains("good.md"), "{out}");
    assert!(
        err.contains("prompts: 2, skills: 0, problems: 1, warnings: 1"),
        "{err}"
    );

    let (code, out, _) = check(&[path, "--format", "json"]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["prompts"], 2);
    assert_eq!(report["problems"][0]["line"], 2);
    assert!(
        report["problems"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("broken.md")
    );
    assert_eq!(report["warnings"].as_array().unwrap().len(), 1);

    let (code, out, _) = check(&[path, "--format", "github"]);
    assert_eq!(code, 1);
    let error = format!(
        "::error file={},line=2::front matter",
        dir.join("broken.md").display()
    );
    assert!(out.lines().any(|l| l.starts_with(&error)), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("::warning file=")),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clean_folder_passes_and_deny_warnings_fails_on_a_warning() {
    let dir = folder("clean");
    std::fs::write(dir.join("good.md"), "+++\n+++\nHello").unwrap();
    let path = dir.to_str().unwrap();
    let (code, out, err) = check(&[path, "--deny-warnings"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    std::fs::write(
        dir.join("greet.md"),
        "---\ndescription: Greet\n---\nHello {{name}}",
    )
    .unwrap();
    assert_eq!(check(&[path]).0, 0);
    assert_eq!(check(&[path, "--deny-warnings"]).0, 1);
    let (code, _, err) = check(&[dir.join("missing").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a folder"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check --skills-as-prompts` reads the skills as prompts too: a skill
/// whose prompt name a prompt file has is a warning naming both (the
/// file's prompt is served); without the flag there is no such prompt.
#[test]
fn check_with_skills_as_prompts_warns_of_a_skill_whose_name_a_prompt_file_has() {
    let dir = folder("collide");
    write(&dir, "git/commit.md", "Commit from the prompt file.\n");
    write(
        &dir,
        "git/commit/SKILL.md",
        "---\nname: commit\ndescription: The commit skill\n---\nSteps.\n",
    );
    let path = dir.to_str().unwrap();
    let file = dir.join("git/commit.md").display().to_string();

    let (code, out, err) = check(&[path]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");

    let (code, out, err) = check(&[path, "--skills-as-prompts"]);
    assert_eq!(code, 0, "{out}{err}");
    let warning = "skill://git/commit/SKILL.md: warning: the prompt `git.commit` is not served: ";
    assert_eq!(out, format!("{warning}{file} has that name\n"), "{err}");
    assert!(
        err.contains("prompts: 1, skills: 1, problems: 0, warnings: 1"),
        "{err}"
    );
    let strict = check(&[path, "--skills-as-prompts", "--deny-warnings"]);
    assert_eq!(strict.0, 1, "{}", strict.2);

    let (_, out, _) = check(&[path, "--skills-as-prompts", "--format", "json"]);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["warnings"][0]["path"], "skill://git/commit/SKILL.md");
    let message = report["warnings"][0]["message"].as_str().unwrap();
    assert!(message.contains(&file), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_makes_one_catalog_of_several_folders_and_a_repository_s_own() {
    let repo = folder("repo");
    let other = folder("other");
    for hidden in [".claude/commands/git", ".github/prompts", ".git", ".vscode"] {
        std::fs::create_dir_all(repo.join(hidden)).unwrap();
    }
    let command = "---\ndescription: Fix an issue\n---\nFix issue $1.\n";
    std::fs::write(repo.join(".claude/commands/git/fix.md"), command).unwrap();
    std::fs::write(
        repo.join(".github/prompts/tests.prompt.md"),
        "Test ${input:target}",
    )
    .unwrap();
    let hello = repo.join(".claude/commands/hello.md");
    std::fs::write(&hello, "+++\n+++\nHello from the repository").unwrap();
    std::fs::write(other.join("hello.md"), "+++\n+++\nHello from elsewhere").unwrap();
    std::fs::write(other.join("bye.md"), "+++\n+++\nBye").unwrap();

    let mut server = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
        .args(["serve", repo.to_str().unwrap(), other.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(server.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("serving") {
        assert_ne!(stderr.read_line(&mut said).unwrap(), 0, "it ended: {said}");
    }
    // The name two folders serve: the second's is a problem naming both.
    let taken = format!(
        "{}: prompt name `hello` is already taken by {}",
        other.join("hello.md").display(),
        hello.display()
    );
    assert!(said.contains(&taken), "{said}");
    // The start message says what is read and what hidden folder is not.
    for read in [
        repo.join(".claude/commands"),
        repo.join(".github/prompts"),
        other.clone(),
    ] {
        assert!(said.contains(&read.display().to_string()), "{said}");
    }
    assert!(said.contains("skipped, hidden: "), "{said}");
    assert!(
        said.contains(&repo.join(".git").display().to_string()),
        "{said}"
    );

    let mut stdin = server.stdin.take().unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params":
        {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/list"});
    writeln!(stdin, "{init}\n{list}").unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    line.clear();
    stdout.read_line(&mut line).unwrap();
    let listed: Value = serde_json::from_str(&line).unwrap();
    let mut names: Vec<&str> = listed["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["bye", "git.fix", "hello", "tests"]);
    drop(stdin);
    assert!(server.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&repo);
    let _ = std::fs::remove_dir_all(&other);
}

/// A folder that is itself a skill, limited to a scope, serves the skill
/// and no prompt: not its `SKILL.md`, whose `name` would name a prompt
/// handing anyone the instructions the scope hides, nor its other
/// Markdown. So the repository's example skills check clean.
#[test]
fn a_skill_s_folder_serves_the_skill_and_no_prompt_file() {
    let root = folder("skill-root");
    let vault = root.join("vault");
    std::fs::create_dir(&vault).unwrap();
    let skill = "---\nname: vault\ndescription: Secrets\nmetadata:\n  mcp-prompts/scopes: finance\n---\nThe vault's steps.\n";
    std::fs::write(vault.join("SKILL.md"), skill).unwrap();
    std::fs::write(vault.join("steps.md"), "More of the vault's steps.").unwrap();
    let mut served = Served::serve(&vault, &[]);
    assert!(served.names().is_empty(), "{}", served.said());
    for name in ["vault", "SKILL", "steps"] {
        let got = served.get(name, json!({}));
        assert_eq!(got["error"]["code"], -32602, "{name}: {got}");
    }
    drop(served);
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/skills");
    for skill in ["release-notes", "acme"] {
        let (code, out, err) = check(&[examples.join(skill).to_str().unwrap()]);
        assert_eq!((code, out.as_str()), (0, ""), "{skill}: {err}");
        assert!(err.contains("prompts: 0, "), "{skill}: {err}");
    }
    let release = examples.join("release-notes");
    let (code, _, err) = render(&["--dir", release.to_str().unwrap(), "templates.entry"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("Unknown prompt: templates.entry"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

/// Writes `text` at `path` in `dir`, its folders made.
fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A repository's root serves its own prompt and skill folders only, and
/// says so: its README, changelog and docs are no prompts (each here
/// would be a problem or a warning). A folder of it named is a plain
/// folder; and a root with none of those folders is a problem saying what
/// to do, `.git` a file (a worktree's, a submodule's) as much as a folder.
#[test]
fn a_repository_s_root_serves_its_prompt_folders_only() {
    let repo = folder("repo-root");
    std::fs::create_dir_all(repo.join(".git/objects")).unwrap();
    write(
        &repo,
        "README.md",
        "# The project\n\nRun it with {{name}}.\n",
    );
    write(&repo, "CHANGELOG.md", "---\nlicense: MIT\n---\n# Changes\n");
    write(&repo, "docs/x.md", "Docs with {{placeholder}}.");
    write(&repo, ".claude/commands/fix.md", "Fix issue $1.");
    write(
        &repo,
        ".github/prompts/tests.prompt.md",
        "Test ${input:target}",
    );
    let skill = "---\nname: notes\ndescription: Take notes\n---\nTake notes.\n";
    write(&repo, ".claude/skills/notes/SKILL.md", skill);
    let path = repo.to_str().unwrap();
    let (code, out, err) = check(&[path, "--deny-warnings"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(
        err.contains("prompts: 2, skills: 1, problems: 0, warnings: 0"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{path}: a repository's root")),
        "{err}"
    );
    let mut served = Served::serve(&repo, &[]);
    let mut names = served.names();
    names.sort_unstable();
    assert_eq!(names, ["fix", "tests"], "{}", served.said());
    assert!(
        served.said().contains("a repository's root"),
        "{}",
        served.said()
    );
    drop(served);
    // Its docs, named: a plain folder.
    let docs = repo.join("docs");
    let (code, out, err) = check(&[path, docs.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("x.md:1: warning: "), "{out}");
    assert!(err.contains("prompts: 3, "), "{err}");

    let worktree = folder("repo-none");
    write(
        &worktree,
        ".git",
        "gitdir: /elsewhere/.git/worktrees/none\n",
    );
    write(&worktree, "README.md", "# A project\n");
    let path = worktree.to_str().unwrap();
    let (code, out, err) = check(&[path]);
    assert_eq!(code, 1, "{out}{err}");
    let problem = format!("{path}: a repository's root (it holds `.git`)");
    assert!(out.starts_with(&problem), "{out}");
    assert!(
        out.contains("name the folders that hold its prompts"),
        "{out}"
    );
    assert!(
        err.contains("prompts: 0, skills: 0, problems: 1, warnings: 0"),
        "{err}"
    );
    let served = Served::serve(&worktree, &[]);
    assert!(served.said().contains(&problem), "{}", served.said());
    drop(served);
    let _ = std::fs::remove_dir_all(&repo);
    let _ = std::fs::remove_dir_all(&worktree);
}

/// A repository's own folders that were real at start and become links
/// while served (a checkout, a swap) are not followed at the next reload:
/// nothing outside is ever served; the prompts and skills read before stay.
#[cfg(unix)]
#[test]
fn a_repository_s_folders_that_become_links_while_served_are_not_followed() {
    use std::os::unix::fs::symlink;
    let outside = folder("became-outside");
    write(
        &outside,
        "commands/credentials.md",
        "aws_secret_access_key = SECRET",
    );
    let stolen = "---\nname: stolen\ndescription: Anything\n---\nSECRET\n";
    write(&outside, "skills/stolen/SKILL.md", stolen);
    let repo = folder("became");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(&repo, ".claude/commands/fix.md", "Fix it.\n");
    let kept = "---\nname: kept\ndescription: A skill of the repository\n---\nSteps.\n";
    write(&repo, ".claude/skills/kept/SKILL.md", kept);
    let mut served = Served::serve(&repo, &[]);
    assert_eq!(served.names(), ["fix"], "{}", served.said());
    // Swapped for links leading out: the renamed folders stay inside.
    for (inside, target) in [("commands", "commands"), ("skills", "skills")] {
        let path = repo.join(".claude").join(inside);
        std::fs::rename(&path, repo.join(format!("old-{inside}"))).unwrap();
        symlink(outside.join(target), &path).unwrap();
    }
    // Past the reload's settling time, and then some.
    std::thread::sleep(std::time::Duration::from_secs(2));
    let names = served.names();
    assert!(!names.iter().any(|n| n == "credentials"), "{names:?}");
    let got = served.get("credentials", json!({}));
    assert_eq!(got["error"]["code"], -32602, "{got}");
    let skills = served.call("skills/list", json!({}));
    assert!(!skills.to_string().contains("stolen"), "{skills}");
    let read = served.call("resources/read", json!({"uri": "skill://stolen/SKILL.md"}));
    assert!(!read.to_string().contains("SECRET"), "{read}");
    // Said why, and still serving.
    assert!(
        served.said().contains("a link is not followed"),
        "{}",
        served.said()
    );
    assert!(served.call("ping", json!({}))["result"].is_object());
    drop(served);
    for dir in [&outside, &repo] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A cloned repository whose prompt or skill folders are links out of it
/// (to `~/.aws`, say), or whose `.claude` is, serves nothing from there:
/// each link is a warning naming it, and no file under it is read.
#[cfg(unix)]
#[test]
fn a_repository_s_prompt_folders_linked_out_of_it_are_not_followed() {
    use std::os::unix::fs::symlink;
    let outside = folder("linked-outside");
    write(&outside, "credentials.md", "aws_secret_access_key = SECRET");
    let stolen = "---\nname: stolen\ndescription: Anything\n---\nSECRET\n";
    write(&outside, "skills/stolen/SKILL.md", stolen);
    write(&outside, "claude/commands/credentials.md", "SECRET");
    let repo = folder("linked");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join(".claude")).unwrap();
    std::fs::create_dir_all(repo.join(".github")).unwrap();
    let links = [
        (repo.join(".claude/commands"), outside.clone()),
        (repo.join(".github/prompts"), outside.clone()),
        (repo.join(".claude/skills"), outside.join("skills")),
    ];
    for (link, target) in &links {
        symlink(target, link).unwrap();
    }
    let path = repo.to_str().unwrap();
    let (code, out, err) = check(&[path]);
    assert_eq!(code, 0, "{out}{err}");
    for (link, _) in &links {
        let warned = format!("{}: warning: a symbolic link", link.display());
        assert!(out.lines().any(|l| l.starts_with(&warned)), "{out}");
    }
    assert!(
        err.contains("prompts: 0, skills: 0, problems: 0, warnings: 3"),
        "{err}"
    );
    assert!(
        !out.contains("SECRET") && !err.contains("SECRET"),
        "{out}{err}"
    );
    assert_eq!(check(&[path, "--deny-warnings"]).0, 1);
    let mut served = Served::serve(&repo, &[]);
    assert!(served.names().is_empty(), "{}", served.said());
    let got = served.get("credentials", json!({}));
    assert_eq!(got["error"]["code"], -32602, "{got}");
    let warned = format!(
        "{}: a symbolic link",
        repo.join(".claude/commands").display()
    );
    assert!(served.said().contains(&warned), "{}", served.said());
    drop(served);

    let linked_claude = folder("linked-claude");
    std::fs::create_dir_all(linked_claude.join(".git")).unwrap();
    symlink(outside.join("claude"), linked_claude.join(".claude")).unwrap();
    let (code, out, err) = check(&[linked_claude.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let warned = format!(
        "{}: warning: a symbolic link",
        linked_claude.join(".claude").display()
    );
    assert!(out.starts_with(&warned), "{out}");
    assert!(
        err.contains("prompts: 0, skills: 0, problems: 0, warnings: 1"),
        "{err}"
    );
    for dir in [&outside, &repo, &linked_claude] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// `mcp-prompts render ARGS...`.
fn render(args: &[&str]) -> (i32, String, String) {
    command("render", args)
}

#[test]
fn render_prints_a_prompt_by_role_or_as_json_and_fails_as_the_server_would() {
    let dir = folder("render");
    let command = "---\ndescription: Fix an issue\nargument-hint: <issue>\n---\nFix issue $1.\n";
    std::fs::write(dir.join("fix.md"), command).unwrap();
    let explain = "---\ninput:\n  schema:\n    code: string\n    level(enum): [beginner, expert]\n---\n\
                   {{role \"system\"}}Be brief.{{role \"user\"}}Explain {{code}} to a {{level}}.";
    std::fs::write(dir.join("explain.prompt"), explain).unwrap();
    let path = dir.to_str().unwrap();

    let (code, out, err) = render(&["--dir", path, "fix", "issue=42"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "Fix an issue\n\n── user ──\nFix issue 42.\n\n");

    let (code, out, err) = render(&[
        "--dir",
        path,
        "explain",
        "code=x",
        "level=expert",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    let roles: Vec<&str> = result["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["user", "user"], "{result}");
    assert!(
        result["messages"][1]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("Explain x to a expert.")
    );

    // A value the argument refuses: the server's own -32602 text.
    let (code, out, err) = render(&["--dir", path, "explain", "code=x", "level=guru"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("invalid value for argument `level`"), "{err}");
    let (code, _, err) = render(&["--dir", path, "nope"]);
    assert_eq!(code, 1);
    assert!(err.contains("Unknown prompt: nope"), "{err}");
    assert!(
        !err.contains("did you mean"),
        "nothing is near `nope`: {err}"
    );
    // A name not served gets the nearest ones that are.
    let (code, _, err) = render(&["--dir", path, "explian", "code=x"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("Unknown prompt: explian; did you mean `explain`?"),
        "{err}"
    );
    let (code, _, err) = render(&["--dir", path, "explian", "--matrix"]);
    assert_eq!(code, 1);
    assert!(err.contains("did you mean `explain`?"), "{err}");
    // Every combination of the arguments: each choice of `level`.
    let (code, out, err) = render(&["--dir", path, "explain", "--matrix"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# explain: 2 combinations\n"), "{out}");
    assert!(
        out.contains(
            "## code=<code> level=expert\n\nuser: Be brief.\nuser: Explain <code> to a expert."
        ),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_answers_what_the_prompt_asks_from_answer_and_says_so_without_a_terminal() {
    let dir = folder("render-asks");
    let review = "+++\ndescription = \"Review\"\n[[arguments]]\nname = \"language\"\nrequired = true\n+++\nReview this {language} code.\n";
    std::fs::write(dir.join("review.md"), review).unwrap();
    let path = dir.to_str().unwrap();
    // The missing argument is asked for, as a client that shows forms is.
    let (code, out, err) = render(&["--dir", path, "review", "--answer", "language=go"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Review this go code."), "{out}");
    let (code, out, err) = render(&["--dir", path, "review"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("no terminal") && err.contains("--answer language=VALUE"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `text` holds what a hostile name or prompt would write raw: a
/// line of its own that is a workflow command, ESC, a bidi override.
fn forges(text: &str) -> bool {
    text.lines()
        .any(|l| l.starts_with("::error file=x") || l.starts_with("::add-mask::"))
        || text.contains(['\u{1b}', '\u{7}', '\u{202e}'])
}

/// A folder and a file named to write GitHub Actions workflow commands
/// and drive the terminal: `check` prints their names escaped in every
/// format, on stdout and in its summary on stderr; JSON keeps the real
/// path.
#[cfg(unix)]
#[test]
fn check_prints_hostile_names_escaped_in_every_format() {
    let parent = folder("hostile-names");
    let dir = parent.join("in\n::error file=x::forged\u{1b}]0;owned\u{7}");
    std::fs::create_dir(&dir).unwrap();
    let file = dir.join("bad\n::add-mask::secret\u{1b}[2J\u{202e}dm.md");
    std::fs::write(&file, "+++\ntitle = oops\n+++\nx").unwrap();
    let path = dir.to_str().unwrap();
    let shown_dir = format!(
        "{}/{}",
        parent.display(),
        r"in\n::error file=x::forged\u{1b}]0;owned\u{7}"
    );
    let shown_file = format!(r"{shown_dir}/bad\n::add-mask::secret\u{{1b}}[2J\u{{202e}}dm.md");

    let (code, out, err) = check(&[path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!forges(&out) && !forges(&err), "{out}{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("{shown_file}:2: "))),
        "{out}"
    );
    assert!(err.contains(&shown_dir), "{err}");

    let (code, out, err) = check(&[path, "--format", "github"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!forges(&out) && !forges(&err), "{out}{err}");
    let property = shown_file.replace('%', "%25").replace(':', "%3A");
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("::error file={property},line=2::"))),
        "{out}"
    );
    assert!(err.contains(&shown_dir), "{err}");

    let (code, out, err) = check(&[path, "--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!forges(&out) && !forges(&err), "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["problems"][0]["path"],
        file.to_str().unwrap(),
        "{out}"
    );
    assert!(err.contains(&shown_dir), "{err}");
    let _ = std::fs::remove_dir_all(&parent);
}

/// A prompt whose text writes the clipboard (OSC 52), clears the screen
/// and reverses what follows: `render` shows it escaped, its lines and
/// tabs kept; `--raw` prints it as it is; JSON escapes it and reads back
/// the same.
#[test]
fn render_escapes_a_prompt_s_control_characters_unless_raw() {
    let dir = folder("render-escapes");
    let text = "Say\tthis\nthen\u{1b}]52;c;aGk=\u{7} and\u{1b}[2J\u{202e}done";
    std::fs::write(dir.join("copy.md"), format!("+++\n+++\n{text}")).unwrap();
    let path = dir.to_str().unwrap();

    let (code, out, err) = render(&["--dir", path, "copy"]);
    assert_eq!(code, 0, "{err}");
    assert!(!forges(&out), "{out}");
    assert!(
        out.contains("Say\tthis\nthen\\u{1b}]52;c;aGk=\\u{7} and\\u{1b}[2J\\u{202e}done"),
        "{out}"
    );

    let (code, out, err) = render(&["--dir", path, "copy", "--raw"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(text), "{out:?}");

    let (code, out, err) = render(&["--dir", path, "copy", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!forges(&out), "{out}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["messages"][0]["content"]["text"], text, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server that serves nothing says so as it starts, with the likely
/// cause (a library crate of prompts the binary never names) and the fix;
/// one that serves a prompt does not.
#[test]
fn serving_nothing_is_a_warning_naming_the_likely_cause() {
    let dir = folder("empty");
    let serve_once = || {
        let output = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
            .args(["serve", dir.to_str().unwrap()])
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stderr).unwrap()
    };
    let err = serve_once();
    assert!(err.contains("serving 0 prompts"), "{err}");
    assert!(
        err.contains("serving no prompts, no skills and no tools")
            && err.contains("library crate")
            && err.contains("use my_prompts as _;"),
        "{err}"
    );
    std::fs::write(dir.join("hello.md"), "+++\n+++\nHello").unwrap();
    let err = serve_once();
    assert!(err.contains("serving 1 prompt"), "{err}");
    assert!(!err.contains("serving no prompts"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An answer the budget for unread answers refuses is logged as the
/// -32603 its client gets, told from the typed error the writer made.
#[test]
fn an_answer_refused_for_the_unsent_budget_is_logged_as_its_error() {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-cli-busy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("big")).unwrap();
    let skill = "---\nname: big\ndescription: One large file\n---\nRead data.txt.\n";
    std::fs::write(dir.join("big/SKILL.md"), skill).unwrap();
    std::fs::write(dir.join("big/data.txt"), "x".repeat(10_000)).unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_mcp-prompts"))
        .args(["serve", dir.to_str().unwrap(), "--max-unsent-bytes", "2000"])
        .env("RUST_LOG", "mcp_prompts=info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stderr = BufReader::new(server.stderr.take().unwrap());
    let mut stdin = server.stdin.take().unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let mut call = |id: u64, method: &str, params: Value| -> Value {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{request}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    assert!(call(1, "initialize", init)["result"].is_object());
    let read = call(2, "resources/read", json!({"uri": "skill://big/data.txt"}));
    assert_eq!(read["error"]["code"], -32603, "{read}");
    let mut line = String::new();
    let logged = loop {
        line.clear();
        assert_ne!(
            stderr.read_line(&mut line).unwrap(),
            0,
            "no line for the read"
        );
        if line.contains("resources/read") {
            break line.clone();
        }
    };
    assert!(logged.contains("outcome=\"error\""), "{logged}");
    assert!(logged.contains("code=-32603"), "{logged}");
    drop(stdin);
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
