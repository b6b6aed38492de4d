//! Every compile error the macros can emit (`#[prompt]`, templates,
//! `catalog![]`, the two derives), and odd-but-valid inputs.
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
}
