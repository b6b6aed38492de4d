use std::any::TypeId;

use super::PromptDef;
use crate::Error;

/// Two handle types, as two `#[prompt]`s have.
struct Acme;
struct Globex;

/// A definition named `name` at line 7 of `src/lib.rs`, of the handle
/// whose type `handle` gives.
const fn def(name: &'static str, handle: fn() -> TypeId) -> PromptDef {
    PromptDef {
        name,
        title: None,
        description: None,
        params: &[],
        invoke: |_| Err(Error::internal("never called")),
        file: "src/lib.rs",
        line: 7,
        handle,
    }
}

#[test]
fn copies_of_a_definition_are_the_same_definition() {
    // Two allocations, as two copies of one constant may be.
    let first = Box::new(def("greet", TypeId::of::<Acme>));
    let copy = Box::new(def("greet", TypeId::of::<Acme>));
    assert!(!std::ptr::eq(
        std::ptr::from_ref(&*first),
        std::ptr::from_ref(&*copy)
    ));
    assert!(first.same_as(&copy));
}

#[test]
fn definitions_of_two_handles_are_told_apart_whatever_they_share() {
    // Same name, file and line, as one `macro_rules!` call writes them.
    let acme = def("summarize", TypeId::of::<Acme>);
    let globex = def("summarize", TypeId::of::<Globex>);
    assert!(!acme.same_as(&globex));
}

#[test]
fn a_definition_without_a_handle_is_known_by_its_address() {
    let one = Box::new(def("built", TypeId::of::<PromptDef>));
    let other = Box::new(def("built", TypeId::of::<PromptDef>));
    assert!(one.same_as(&one));
    assert!(!one.same_as(&other));
}
