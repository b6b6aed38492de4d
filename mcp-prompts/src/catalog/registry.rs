//! The prompts `#[prompt]` registers, gathered from the whole binary by
//! `inventory`.

use crate::descriptor::{PromptDef, Templated};

/// What `#[prompt]` submits to inventory: the prompt's descriptor, the
/// constant its handle also exposes.
#[doc(hidden)]
pub struct Registration(pub &'static PromptDef);

inventory::collect!(Registration);

/// Every prompt registered with `#[prompt]` in this binary, in no set order.
///
/// ```
/// #[mcp_prompts::prompt]
/// /// Say hello
/// fn hello() -> String {
///     "Hello!".into()
/// }
///
/// assert!(mcp_prompts::registered_prompts().any(|p| p.name() == "hello"));
/// ```
pub fn registered_prompts() -> impl Iterator<Item = &'static PromptDef> {
    let prompts = inventory::iter::<Registration>.into_iter().map(|r| r.0);
    // Template prompts register as such, marked.
    let templates = inventory::iter::<Templated>.into_iter().map(|t| t.0);
    prompts.chain(templates)
}
