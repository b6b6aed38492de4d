//! Building a server validates the catalog: duplicates, bad defaults and
//! bad examples are errors that say where each definition is, never a silent overwrite.

mod first {
    /// One definition
    #[mcp_prompts::prompt(name = "same")]
    pub fn a() -> String {
        "a".into()
    }
}

mod second {
    /// Another definition with the same name
    #[mcp_prompts::prompt(name = "same")]
    pub fn b() -> String {
        "b".into()
    }
}

/// A default that is not a valid value of its type, which only parsing
/// can tell (the compiler checks numbers, booleans and choices)
#[mcp_prompts::prompt]
fn bad_default(#[arg(default = "lots")] host: std::net::IpAddr) -> String {
    host.to_string()
}

/// An example checked the same way
#[mcp_prompts::prompt]
fn bad_example(#[arg(example = "localhost")] host: std::net::IpAddr) -> String {
    host.to_string()
}

#[test]
fn duplicate_names_bad_defaults_and_bad_examples_fail_the_build() {
    let names: Vec<_> = mcp_prompts::registered_prompts()
        .map(mcp_prompts::PromptDef::name)
        .collect();
    assert_eq!(
        names.iter().filter(|n| **n == "same").count(),
        2,
        "{names:?}"
    );

    let err = mcp_prompts::Server::new("t", "1").build().unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("duplicate prompt name `same`"),
        "{message}"
    );
    assert!(message.contains("tests/catalog.rs:7"), "{message}");
    assert!(message.contains("tests/catalog.rs:15"), "{message}");
    assert!(
        message.contains(
            "prompt `bad_default` at tests/catalog.rs:23: default `lots` of argument `host` is not a valid value: expected an IP address (invalid IP address syntax)"
        ),
        "{message}"
    );
    assert!(
        message.contains(
            "prompt `bad_example` at tests/catalog.rs:29: example `localhost` of argument `host` is not a valid value: expected an IP address (invalid IP address syntax)"
        ),
        "{message}"
    );
    assert_eq!(err.problems().len(), 3);
}

#[test]
fn an_explicit_list_is_served_instead() {
    let only = mcp_prompts::registered_prompts()
        .filter(|p| p.name() == "same")
        .take(1);
    let service = mcp_prompts::Server::new("t", "1")
        .prompts(only)
        .build()
        .unwrap();
    assert_eq!(service.prompt_count(), 1);
}

#[test]
fn a_catalog_and_the_registered_prompts_are_served_once_each() {
    const ONE: mcp_prompts::Catalog = mcp_prompts::catalog![first::a];
    let registered = mcp_prompts::registered_prompts().count();
    // `first::a` is in both sources; the duplicate name `same` from
    // `second::b` is still an error, and so are the bad default and the
    // bad example.
    let err = mcp_prompts::Server::new("t", "1")
        .catalog(ONE)
        .include_registered()
        .build()
        .unwrap_err();
    assert_eq!(err.problems().len(), 3, "{err}");
    let only = mcp_prompts::Server::new("t", "1")
        .catalog(ONE)
        .catalog(ONE)
        .build()
        .unwrap();
    assert_eq!(only.prompt_count(), 1);
    assert!(registered >= 3);
}

/// A definition built by hand, as a generator of prompts might: its
/// argument names are only checked when the server starts.
static HAND_BUILT: mcp_prompts::PromptDef = mcp_prompts::PromptDef {
    name: "hand_built",
    title: None,
    description: None,
    params: &[
        mcp_prompts::ArgDef {
            name: "topic",
            title: "",
            description: "",
            default: None,
            example: "",
            range: None,
            ty: <String as mcp_prompts::PromptParam>::TYPE,
            complete: None,
        },
        mcp_prompts::ArgDef {
            name: "topic",
            title: "",
            description: "",
            default: None,
            example: "",
            range: None,
            ty: <Option<String> as mcp_prompts::PromptParam>::TYPE,
            complete: None,
        },
    ],
    invoke: |_| Err(mcp_prompts::Error::internal("never called")),
    file: file!(),
    line: line!(),
    handle: std::any::TypeId::of::<mcp_prompts::PromptDef>,
};

#[test]
fn clashing_argument_names_the_compiler_cannot_see_fail_at_start() {
    let err = mcp_prompts::Server::new("t", "1")
        .prompts([&HAND_BUILT])
        .build()
        .unwrap_err();
    assert_eq!(
        err.problems(),
        ["prompt `hand_built` declares argument `topic` twice"]
    );
}
