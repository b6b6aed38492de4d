//! Argument completion: completers, prefix filtering, the 100 cap,
//! `total` and `hasMore`.

mod index;
mod output;
mod plan;

use std::sync::Arc;

use crate::descriptor::{CompletionCall, CompletionInput};

pub(crate) use index::{MAX_VALUES, Matches, PrefixIndex, fold, rank, starts_with_folded};

pub use output::{CompleteWith, CompleterOutput, IntoCompletions};
pub(crate) use plan::StaticIndexes;

/// A completer given at run time (to a [`DynamicArgument`](crate::DynamicArgument)
/// or for resource templates), type-erased.
#[derive(Clone)]
pub(crate) struct DynCompleter(Arc<dyn Fn(CompletionInput) -> CompletionCall + Send + Sync>);

impl DynCompleter {
    pub(crate) fn new<C, M>(completer: C) -> Self
    where
        C: CompleteWith<M> + Clone + Send + Sync + 'static,
    {
        Self(Arc::new(move |input| {
            completer.clone().complete_with(input)
        }))
    }

    pub(crate) fn call(&self, input: CompletionInput) -> CompletionCall {
        (self.0)(input)
    }
}

impl std::fmt::Debug for DynCompleter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DynCompleter")
    }
}

// Here, not with the type: it matches the way the prefix index does.
impl CompletionInput {
    /// The items that start with the typed text, ignoring case, in their
    /// order: the one-liner most completers need.
    ///
    /// ```
    /// # use mcp_prompts::CompletionInput;
    /// fn focus(input: &CompletionInput) -> Vec<&'static str> {
    ///     input.matching(["performance", "readability"]).collect()
    /// }
    /// ```
    pub fn matching<'a, I>(&self, items: I) -> impl Iterator<Item = &'a str> + use<'a, I>
    where
        I: IntoIterator<Item = &'a str>,
    {
        let typed = index::fold(self.value());
        items
            .into_iter()
            .filter(move |item| index::starts_with_folded(item, &typed))
    }
}
