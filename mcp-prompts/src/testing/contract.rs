//! A catalog held to the one that shipped, in a plain `cargo test`: the
//! committed document read back, and a breaking change a failed test.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::contract::{Changes, Contract};
use crate::server::Service;

/// The variable that, set to `1`, rewrites the committed catalog with the
/// catalog as it is: for a change that is meant, breaking ones included.
const UPDATE: &str = "MCP_PROMPTS_UPDATE_CATALOG";

/// How many catalogs this process has written, which names each one's
/// file until it is renamed into place.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// Holds `service`'s catalog to the one committed at `path` (relative to
/// the package's root, where `cargo test` runs a test): fails the test on
/// a breaking change, listing every one; returns all the changes for the
/// test to look at. The first run writes the file and fails, asking for it
/// to be committed, as a new snapshot does; with `MCP_PROMPTS_UPDATE_CATALOG=1`
/// the file is rewritten with the catalog as it is.
///
/// ```no_run
/// # fn service() -> mcp_prompts::Service { unimplemented!() }
/// #[test]
/// fn the_catalog_keeps_its_contract() {
///     mcp_prompts::testing::assert_catalog_compatible(&service(), "prompts.lock.json");
/// }
/// ```
///
/// # Panics
///
/// On a breaking change, when the file is missing (it is written first),
/// or when it cannot be read or written.
pub fn assert_catalog_compatible(service: &Service, path: impl AsRef<Path>) -> Changes {
    let path = path.as_ref();
    let now = Contract::of(service);
    let update = std::env::var(UPDATE).is_ok_and(|value| matches!(value.as_str(), "1" | "true"));
    let shipped = match std::fs::read_to_string(path) {
        Ok(text) if !update => text,
        Err(err) if err.kind() != std::io::ErrorKind::NotFound && !update => {
            panic!(
                "the committed catalog `{}` cannot be read: {err}",
                path.display()
            )
        }
        found => {
            let old = found.ok().and_then(|text| Contract::from_json(&text).ok());
            // Whole or not at all: tests run at once may write it together.
            // Tests are threads of one process: each writes a file of its own.
            let nth = WRITES.fetch_add(1, Ordering::Relaxed);
            let written = path.with_extension(format!("{}-{nth}.new", std::process::id()));
            let done = std::fs::write(&written, now.to_json())
                .and_then(|()| std::fs::rename(&written, path));
            if let Err(err) = done {
                panic!(
                    "the catalog cannot be written to `{}`: {err}",
                    path.display()
                );
            }
            if update {
                return old
                    .map(|old| Changes::between(&old, &now))
                    .unwrap_or_default();
            }
            panic!(
                "no catalog was committed at `{}`: it is written now; commit it",
                path.display()
            );
        }
    };
    let shipped = Contract::from_json(&shipped)
        .unwrap_or_else(|err| panic!("`{}` is no catalog: {err}", path.display()));
    let changes = Changes::between(&shipped, &now);
    assert!(
        !changes.is_breaking(),
        "the catalog breaks the one committed at `{}`:\n{changes}\
         If that is meant, rewrite it: {UPDATE}=1 cargo test",
        path.display()
    );
    changes
}
