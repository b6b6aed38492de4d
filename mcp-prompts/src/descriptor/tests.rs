use super::PromptDef;
use crate::Error;

/// A definition as `#[prompt]` writes one for `path` at line 7 of
/// `src/lib.rs`, named `name`.
const fn def(name: &'static str, path: &'static str) -> PromptDef {
    PromptDef {
        name,
        title: None,
        description: None,
        params: &[],
        invoke: |_| Err(Error::internal("never called")),
        file: "src/lib.rs",
        line: 7,
        path,
    }
}

#[test]
fn copies_of_a_definition_are_the_same_definition() {
    // Two allocations, as two copies of one constant may be.
    let (first, copy) = (
        Box::new(def("greet", "app::greet")),
        Box::new(def("greet", "app::greet")),
    );
    assert!(!std::ptr::eq(
        std::ptr::from_ref(&*first),
        std::ptr::from_ref(&*copy)
    ));
    assert!(first.same_as(&copy));
}

#[test]
fn definitions_one_macro_call_writes_are_told_apart_by_their_path() {
    // Same name, file and line (a `macro_rules!` call), other modules.
    let acme = def("summarize", "app::acme::summarize");
    let globex = def("summarize", "app::globex::summarize");
    assert!(!acme.same_as(&globex));
}

#[test]
fn a_definition_without_a_path_is_known_by_its_address() {
    let (one, other) = (Box::new(def("built", "")), Box::new(def("built", "")));
    assert!(one.same_as(&one));
    assert!(!one.same_as(&other));
}
