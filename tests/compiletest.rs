//! Every compile error the macros can emit (`#[prompt]`, templates,
//! `catalog![]`, the two derives, `include_skill!`), and odd-but-valid
//! inputs.
//! Bless changes with `TRYBUILD=overwrite cargo test --test compiletest`.

use std::path::Path;

#[test]
fn ui() {
    place_assets();
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/prompt/*.rs");
    cases.compile_fail("tests/ui/template/*.rs");
    cases.compile_fail("tests/ui/catalog/*.rs");
    cases.compile_fail("tests/ui/derive/*.rs");
    cases.compile_fail("tests/ui/skill/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}

/// Puts the files the cases name (icons) in the crate root trybuild builds
/// them in, `<target>/tests/trybuild/<package>/`, where the macros look for
/// them; so the cases name them as `assets/...` wherever the target
/// directory is (`CARGO_TARGET_DIR` may be outside the workspace).
fn place_assets() {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory holds its tmp");
    let assets = target
        .join("tests/trybuild")
        .join(env!("CARGO_PKG_NAME"))
        .join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, name) in [
        ("examples/showcase/assets/review.svg", "review.svg"),
        ("tests/ui/prompt/assets/oversized.svg", "oversized.svg"),
    ] {
        std::fs::copy(workspace.join(from), assets.join(name)).unwrap();
    }
    place_skills(&assets.join("skills"));
}

/// The skill folders the `include_skill!` cases embed: made here, since a
/// link and 513 files are poor things to keep in the repository.
fn place_skills(skills: &Path) {
    let _ = std::fs::remove_dir_all(skills);
    let write = |path: &str, text: &str| {
        let path = skills.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let matter =
        |name: &str| format!("---\nname: {name}\ndescription: The {name} skill\n---\nBody\n");
    write("good/SKILL.md", &matter("good"));
    write("good/templates/entry.md", "## {version}\n");
    write("good/nested/SKILL.md", &matter("nested"));
    write("good/.hidden", "not embedded");
    write("bad-name/SKILL.md", &matter("Bad_Name"));
    write(
        "undescribed/SKILL.md",
        "---\nname: undescribed\n---\nBody\n",
    );
    write("crowded/SKILL.md", &matter("crowded"));
    for i in 0..512 {
        write(&format!("crowded/files/{i}.txt"), "x");
    }
    write("leaky/SKILL.md", &matter("leaky"));
    write("outside.txt", "a secret beside the skill");
    #[cfg(unix)]
    std::os::unix::fs::symlink("../outside.txt", skills.join("leaky/secret.txt")).unwrap();
    // Folders that are no skill as they stand.
    write("empty/notes.md", "no SKILL.md here");
    write("linked/SKILL.md", &matter("linked"));
    write("linked/real/a.md", "a");
    #[cfg(unix)]
    std::os::unix::fs::symlink("real", skills.join("linked/alias")).unwrap();
    write("hashed/SKILL.md", &matter("hashed"));
    write("hashed/notes#1.md", "a");
    // Front matter each way wrong, one skill each.
    let skill = |name: &str, front: &str| {
        write(
            &format!("{name}/SKILL.md"),
            &format!("---\n{front}---\nBody\n"),
        );
    };
    write("unclosed/SKILL.md", "---\nname: unclosed\n");
    skill("not-yaml", "name: [not-yaml\n");
    skill("listed", "- name\n- listed\n");
    skill("numbered", "name: 7\ndescription: d\n");
    skill("elsewhere", "name: other\ndescription: d\n");
    skill(
        "licensed",
        "name: licensed\ndescription: d\nlicense: [MIT]\n",
    );
    skill(
        "tagged",
        "name: tagged\ndescription: d\nwhen: !date 2026-01-01\n",
    );
    let long = "x".repeat(501);
    skill(
        "old",
        &format!("name: old\ndescription: d\ncompatibility: {long}\n"),
    );
    skill("meta", "name: meta\ndescription: d\nmetadata:\n  rank: 2\n");
    skill(
        "scoped",
        "name: scoped\ndescription: d\nmetadata:\n  mcp-prompts/scopes: 'a\"b'\n",
    );
    let long = "x".repeat(1025);
    skill("wordy", &format!("name: wordy\ndescription: {long}\n"));
    skill("keyed", "name: keyed\ndescription: d\n1: one\n");
    skill("nameless", "description: d\n");
    skill(
        "undescribed-list",
        "name: undescribed-list\ndescription: [d]\n",
    );
    // Folders odd in other ways.
    write("binary/SKILL.md", "");
    std::fs::write(
        skills.join("binary/SKILL.md"),
        b"---\nname: binary\xff\n---\n",
    )
    .unwrap();
    let deep = (0..17).fold(String::new(), |path, i| path + &format!("d{i}/"));
    write("deep/SKILL.md", &matter("deep"));
    write(&format!("deep/{deep}x.md"), "x");
    write("odd-name/SKILL.md", &matter("odd-name"));
    write("pipe/SKILL.md", &matter("pipe"));
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let name = std::ffi::OsStr::from_bytes(b"not-utf8-\xff.md");
        std::fs::write(skills.join("odd-name").join(name), "x").unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(skills.join("pipe/queue"))
            .status()
            .unwrap();
        assert!(made.success());
    }
}
