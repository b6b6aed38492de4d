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
}
