//! The catalog as a contract for prompts written in Rust: a changed
//! `#[prompt]` signature classified as a user's CI would see it, and the
//! test kit holding a service to a committed catalog.

use mcp_prompts::contract::{ChangeKind, Changes, Contract};
use mcp_prompts::testing::assert_catalog_compatible;
use mcp_prompts::{Catalog, Server, Service, catalog};

/// The prompt as it shipped.
mod shipped {
    use mcp_prompts::{PromptArg, prompt};

    /// How the plan should sound.
    #[derive(Clone, Copy, Debug, PromptArg)]
    pub enum Tone {
        /// Polite.
        Formal,
        /// Relaxed.
        Casual,
        /// Friendly.
        Warm,
    }

    /// Plan the week
    #[prompt(name = "plan")]
    pub fn plan(goal: String, tone: Option<Tone>, days: Option<u32>) -> String {
        format!("{goal} {tone:?} {days:?}")
    }
}

/// The prompt changed: `tone` required and without `warm`, `days` a
/// smaller integer, and a new optional argument.
mod changed {
    use mcp_prompts::{PromptArg, prompt};

    /// How the plan should sound.
    #[derive(Clone, Copy, Debug, PromptArg)]
    pub enum Tone {
        /// Polite.
        Formal,
        /// Relaxed.
        Casual,
    }

    /// Plan the week
    #[prompt(name = "plan")]
    pub fn plan(goal: String, tone: Tone, days: Option<u8>, notes: Option<String>) -> String {
        format!("{goal} {tone:?} {days:?} {notes:?}")
    }
}

/// The prompt with only a compatible change: a new optional argument.
mod extended {
    use mcp_prompts::prompt;

    /// Plan the week
    #[prompt(name = "plan")]
    pub fn plan(
        goal: String,
        tone: Option<super::shipped::Tone>,
        days: Option<u32>,
        notes: Option<String>,
    ) -> String {
        format!("{goal} {tone:?} {days:?} {notes:?}")
    }
}

const SHIPPED: Catalog = catalog![shipped::plan];
const CHANGED: Catalog = catalog![changed::plan];
const EXTENDED: Catalog = catalog![extended::plan];

fn service(catalog: Catalog) -> Service {
    Server::new("plans", "1.0")
        .catalog(catalog)
        .build()
        .unwrap()
}

#[test]
fn a_changed_prompt_signature_is_classified() {
    let (old, new) = (
        Contract::of(&service(SHIPPED)),
        Contract::of(&service(CHANGED)),
    );
    let changes = Changes::between(&old, &new);
    let breaking: Vec<_> = changes
        .breaking()
        .iter()
        .map(|c| (c.kind(), c.argument(), c.choice()))
        .collect();
    assert_eq!(
        breaking,
        [
            (ChangeKind::ArgumentNowRequired, Some("tone"), None),
            (ChangeKind::ChoiceRemoved, Some("tone"), Some("warm")),
            (ChangeKind::ArgumentTypeChanged, Some("days"), None),
        ],
        "{changes}"
    );
    let compatible: Vec<_> = changes
        .compatible()
        .iter()
        .map(|c| (c.kind(), c.argument()))
        .collect();
    assert_eq!(
        compatible,
        [(ChangeKind::ArgumentAddedOptional, Some("notes"))]
    );
    // Each names where the new definition is.
    let place = changes.breaking()[0].place().unwrap();
    assert!(place.starts_with("tests/catalog_contract.rs:"), "{place}");
    assert!(Changes::between(&old, &old).is_empty());
}

#[test]
fn the_test_kit_holds_a_service_to_its_committed_catalog() {
    let dir = std::env::temp_dir().join(format!("catalog-contract-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("prompts.lock.json");
    let _ = std::fs::remove_file(&lock);
    // The first run writes the catalog, and asks for it to be committed.
    let first = std::panic::catch_unwind(|| assert_catalog_compatible(&service(SHIPPED), &lock));
    let said = *first.unwrap_err().downcast::<String>().unwrap();
    assert!(said.contains("commit it"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        Contract::of(&service(SHIPPED)).to_json()
    );
    // The same catalog, and one only added to: they pass.
    assert!(assert_catalog_compatible(&service(SHIPPED), &lock).is_empty());
    let added = assert_catalog_compatible(&service(EXTENDED), &lock);
    assert_eq!(
        added.compatible()[0].kind(),
        ChangeKind::ArgumentAddedOptional
    );
    // A breaking change fails, listing each one.
    let broken = std::panic::catch_unwind(|| assert_catalog_compatible(&service(CHANGED), &lock));
    let said = *broken.unwrap_err().downcast::<String>().unwrap();
    assert!(said.contains("argument-now-required"), "{said}");
    assert!(said.contains("no longer takes `warm`"), "{said}");
    assert!(said.contains("MCP_PROMPTS_UPDATE_CATALOG=1"), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}
