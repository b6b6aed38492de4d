//! Every compile error the macros can emit (`#[prompt]`, templates,
//! `catalog![]`, the two derives), and odd-but-valid inputs.
//! Bless changes with `TRYBUILD=overwrite cargo test --test compiletest`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/prompt/*.rs");
    cases.compile_fail("tests/ui/template/*.rs");
    cases.compile_fail("tests/ui/catalog/*.rs");
    cases.compile_fail("tests/ui/derive/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
