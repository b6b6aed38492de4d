//! Building a server validates the catalog: duplicates and bad defaults are
//! errors that say where each definition is, never a silent overwrite.

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

/// A default that is not a valid value of its type
#[mcp_prompts::prompt]
fn bad_default(#[arg(default = "lots")] count: u32) -> String {
    count.to_string()
}

#[test]
fn duplicate_names_and_bad_defaults_fail_the_build() {
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
        message.contains("default `lots` of argument `count` does not parse"),
        "{message}"
    );
    assert_eq!(err.problems().len(), 2);
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
