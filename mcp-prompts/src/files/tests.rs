//! The prompt folder's unit tests: what is served, watched and reported.

use super::watch::Heed;
use super::*;
use crate::catalog::Prompts;
use crate::presentation::Icon;
use crate::server::Server;

/// A server whose catalog is live and starts empty, and the catalog.
fn live() -> (crate::server::Service, Prompts) {
    Server::new("t", "1")
        .prompts(std::iter::empty::<crate::catalog::AnyPrompt>())
        .build_live()
        .unwrap()
}

/// A fresh directory under the system's temporary one.
pub(super) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(unix)]
#[test]
fn the_watch_follows_the_folders_the_loader_reads() {
    let dir = scratch("watch-rule");
    let made = |path: &str| {
        std::fs::create_dir_all(dir.join(path)).unwrap();
        std::fs::write(dir.join(path).join("p.md"), "Hi").unwrap();
    };
    made("git");
    made("a/b/c/d");
    made("a/b/c/d/too-deep");
    made(".git/objects");
    made("skill");
    std::fs::write(dir.join("skill/SKILL.md"), "---\nname: s\n---\n").unwrap();
    std::os::unix::fs::symlink("/usr", dir.join("usr")).unwrap();
    let (_service, prompts) = live();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    let folders = || watched.loader.watched();
    let mut expected: Vec<(PathBuf, Heed)> = ["", "a", "a/b", "a/b/c", "a/b/c/d", "git"]
        .iter()
        .map(|f| (dir.join(f), Heed::Everything))
        .collect();
    // The skill's folder, for its SKILL.md alone.
    expected.push((dir.join("skill"), Heed::SkillFile));
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(folders(), expected);
    let is_watched = |folder: &str| folders().iter().any(|(f, _)| *f == dir.join(folder));
    // A new folder is watched once read; a removed one is let go.
    made("new");
    watched.reload();
    assert!(is_watched("new"));
    std::fs::remove_dir_all(dir.join("git")).unwrap();
    watched.reload();
    assert!(!is_watched("git"));
    // A skill's folder without its SKILL.md is the walk's.
    std::fs::remove_file(dir.join("skill/SKILL.md")).unwrap();
    watched.reload();
    assert!(folders().contains(&(dir.join("skill"), Heed::Everything)));
    drop(watched);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory that is itself a skill serves none of its files as a
/// prompt, `SKILL.md` (whose `name` would name one) or the others; it
/// is watched for its `SKILL.md` alone, without which it is prompts.
#[test]
fn a_directory_that_is_a_skill_serves_no_prompts() {
    let dir = scratch("files-skill-root");
    let skill = "---\nname: vault\ndescription: Secrets\n---\nThe steps.";
    std::fs::write(dir.join("SKILL.md"), skill).unwrap();
    std::fs::write(dir.join("notes.md"), "More steps.").unwrap();
    let (_service, prompts) = live();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    assert!(prompts.served().is_empty(), "{:?}", prompts.served());
    assert!(watched.problems().is_empty(), "{:?}", watched.problems());
    // Not a silent empty catalog: a warning says why, and what to do.
    let warned = watched.warnings();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].to_string().contains("is an Agent Skill"),
        "{warned:?}"
    );
    let folders = watched.loader.watched();
    assert_eq!(folders, [(dir.join(""), Heed::SkillFile)]);
    std::fs::remove_file(dir.join("SKILL.md")).unwrap();
    watched.reload();
    assert_eq!(prompts.served(), ["notes"]);
    assert!(watched.warnings().is_empty(), "{:?}", watched.warnings());
    drop(watched);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reload_keeps_what_the_application_disabled_and_a_drop_removes_the_prompts() {
    let dir = scratch("files-disable");
    std::fs::write(dir.join("one.md"), "+++\n+++\nOne").unwrap();
    std::fs::write(dir.join("Two.MD"), "+++\n+++\nTwo").unwrap();
    std::fs::write(dir.join(".hidden.md"), "+++\n+++\nHidden").unwrap();
    let (_service, prompts) = live();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    assert_eq!(prompts.served(), ["Two", "one"]);
    assert!(prompts.disable("one"));
    std::fs::write(dir.join("three.md"), "+++\n+++\nThree").unwrap();
    watched.reload();
    assert_eq!(prompts.served(), ["Two", "three"]);
    assert!(prompts.enable("one"));
    assert_eq!(watched.served().len(), 3);
    assert!(watched.problems().is_empty());
    drop(watched);
    assert!(prompts.served().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_file_is_a_problem_until_fixed() {
    let dir = scratch("files-broken");
    let file = dir.join("broken.md");
    std::fs::write(&file, "+++\n+++\nHi {who}").unwrap();
    let (_service, prompts) = live();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    let problems = watched.problems();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].line, Some(3));
    assert_eq!(
        problems[0].to_string(),
        format!(
            "{}:3: placeholder `{{who}}` names no argument; the prompt declares no arguments",
            file.display()
        )
    );
    assert!(prompts.served().is_empty());
    std::fs::write(&file, "+++\n[[arguments]]\nname = \"who\"\n+++\nHi {who}").unwrap();
    watched.reload();
    assert!(watched.problems().is_empty());
    assert_eq!(prompts.served(), ["broken"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_icon_file_beside_a_prompt_is_embedded_and_followed() {
    let dir = scratch("files-icon");
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("assets/ship.svg"), "<svg/>").unwrap();
    let text = "+++\nicon = \"assets/ship.svg\"\n+++\nShip it.";
    std::fs::write(dir.join("ship.md"), text).unwrap();
    std::fs::write(dir.join("lost.md"), "+++\nicon = \"nope.png\"\n+++\nx").unwrap();
    let (_service, prompts) = live();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    let icon = || watched.loader.served_now()[0].icons()[0].clone();
    assert_eq!(icon(), Icon::embedded("image/svg+xml", b"<svg/>"));
    let problems = watched.problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].line, Some(2));
    assert!(
        problems[0]
            .message
            .contains("cannot read icon file `nope.png`"),
        "{problems:?}"
    );
    // An edit of the icon alone, in its subfolder, is a change of the
    // prompt, seen without a reload.
    std::fs::write(dir.join("assets/ship.svg"), "<svg></svg>").unwrap();
    let edited = Icon::embedded("image/svg+xml", b"<svg></svg>");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while icon() != edited {
        assert!(
            std::time::Instant::now() < deadline,
            "the icon's edit was not seen"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_servers_tags_choose_among_prompt_files() {
    let dir = scratch("files-tags");
    std::fs::write(dir.join("blame.md"), "+++\ntags = [\"git\"]\n+++\nBlame.").unwrap();
    std::fs::write(dir.join("lunch.md"), "+++\ntags = [\"food\"]\n+++\nLunch.").unwrap();
    let (_service, prompts) = Server::new("t", "1")
        .prompts(std::iter::empty::<crate::catalog::AnyPrompt>())
        .only_tags(["git"])
        .build_live()
        .unwrap();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    assert_eq!(prompts.served(), ["blame"]);
    // Left out by the server, not served from the directory, not a problem.
    assert_eq!(watched.served(), ["blame"]);
    assert!(watched.problems().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn each_kind_of_file_is_read_in_its_own_syntax() {
    let dir = scratch("files-kinds");
    std::fs::write(dir.join("standup.md"), "+++\n+++\nStandup").unwrap();
    let command = "---\nargument-hint: <issue>\n---\nFix $1 and {{not a placeholder}}";
    std::fs::write(dir.join("fix.md"), command).unwrap();
    std::fs::write(dir.join("explain.md"), "Explain $ARGUMENTS").unwrap();
    let vscode = "---\nmode: agent\n---\nTest ${input:target}";
    std::fs::write(dir.join("tests.prompt.md"), vscode).unwrap();
    let (service, prompts) = live();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    assert!(watched.problems().is_empty(), "{:?}", watched.problems());
    assert_eq!(prompts.served(), ["explain", "fix", "standup", "tests"]);
    let client = crate::testing::Client::new(&service);
    let fix = crate::request::GetPrompt::new("fix").arg("issue", "42");
    let fix = client.get(fix).await.unwrap();
    assert_eq!(fix.texts(), ["Fix 42 and {{not a placeholder}}"]);
    let tests = crate::request::GetPrompt::new("tests").arg("target", "parse");
    assert_eq!(client.get(tests).await.unwrap().texts(), ["Test parse"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn dotprompt_files_are_served_and_follow_their_partials() {
    let dir = scratch("files-dotprompt");
    std::fs::create_dir_all(dir.join("git")).unwrap();
    let summary =
        "---\ninput:\n  schema:\n    topic: string\n---\n{{> header}}\nSummarize {{topic}}.";
    std::fs::write(dir.join("git/summary.prompt"), summary).unwrap();
    std::fs::write(dir.join("_header.prompt"), "You are terse.\n").unwrap();
    std::fs::write(
        dir.join("chat.prompt"),
        "{{role \"system\"}}Hi\n{{role \"user\"}}{{q}}",
    )
    .unwrap();
    let (service, prompts) = live();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    assert!(watched.problems().is_empty(), "{:?}", watched.problems());
    // A partial is never served.
    assert_eq!(prompts.served(), ["chat", "git.summary"]);
    let warnings = watched.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].to_string().contains("chat.prompt:1:"),
        "{}",
        warnings[0]
    );
    let client = crate::testing::Client::new(&service);
    let get = || crate::request::GetPrompt::new("git.summary").arg("topic", "the diff");
    let got = client.get(get()).await.unwrap();
    assert_eq!(got.texts(), ["You are terse.\nSummarize the diff."]);
    // Editing the partial changes the prompt that includes it.
    std::fs::write(dir.join("_header.prompt"), "You are thorough.\n").unwrap();
    watched.reload();
    let got = client.get(get()).await.unwrap();
    assert_eq!(got.texts(), ["You are thorough.\nSummarize the diff."]);
    // Breaking it is a problem of the partial's and of its includer's.
    std::fs::write(dir.join("_header.prompt"), "{{#if}}").unwrap();
    watched.reload();
    let problems: Vec<String> = watched.problems().iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("_header.prompt:1:"), "{problems:?}");
    assert!(problems[1].contains("summary.prompt:6:"), "{problems:?}");
    assert_eq!(prompts.served(), ["chat"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn subfolders_are_served_as_dotted_names() {
    let dir = scratch("files-folders");
    for folder in ["git", ".git", "skill", "a/b/c/d/e"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    std::fs::write(dir.join("git/commit.md"), "Commit $ARGUMENTS").unwrap();
    std::fs::write(dir.join("git/review.prompt.md"), "Review").unwrap();
    std::fs::write(dir.join(".git/hidden.md"), "Hidden").unwrap();
    // An Agent Skill's folder holds no prompts.
    std::fs::write(dir.join("skill/SKILL.md"), "A skill").unwrap();
    std::fs::write(dir.join("skill/step.md"), "A step").unwrap();
    std::fs::write(dir.join("a/b/c/d/deep.md"), "Deep").unwrap();
    std::fs::write(dir.join("a/b/c/d/e/deeper.md"), "Too deep").unwrap();
    let (_service, prompts) = live();
    let watched = PromptDir::watch(&dir, &prompts).unwrap();
    assert!(watched.problems().is_empty(), "{:?}", watched.problems());
    assert_eq!(
        prompts.served(),
        ["a.b.c.d.deep", "git.commit", "git.review"]
    );
    // Watched like the top level.
    std::fs::write(dir.join("git/blame.md"), "Blame").unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !prompts.served().contains(&"git.blame".to_owned()) {
        assert!(
            std::time::Instant::now() < deadline,
            "the new file was not seen"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
