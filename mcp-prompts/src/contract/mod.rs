//! The catalog as a contract: every prompt and skill a server offers, as
//! one deterministic document to commit (`prompts.lock.json`), and the
//! changes between two of them, each classified as breaking, compatible
//! or informational, as `cargo semver-checks` does for a crate's API.
//!
//! ```
//! use mcp_prompts::contract::{Changes, Contract};
//!
//! # fn run(service: &mcp_prompts::Service) -> Result<(), Box<dyn std::error::Error>> {
//! let shipped = Contract::from_json(&std::fs::read_to_string("prompts.lock.json")?)?;
//! let now = Contract::of(service);
//! let changes = Changes::between(&shipped, &now);
//! assert!(!changes.is_breaking(), "{changes}");
//! # Ok(()) }
//! ```

mod about;
mod changes;
mod document;
mod kind;

pub use changes::{Changes, MAX_CHANGES};
pub use document::{
    ArgumentEntry, ArgumentRange, Contract, ContractError, FileEntry, PromptEntry, SkillEntry,
};
pub use kind::{Change, ChangeClass, ChangeKind};

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
