//! Every compile error `#[prompt]` can emit, and odd-but-valid inputs.
//! Bless changes with `TRYBUILD=overwrite cargo test --test compiletest`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/prompt/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
