//! Argument completion: completers, prefix filtering, the 100 cap,
//! `total` and `hasMore`.

mod index;
mod output;
mod plan;

use std::sync::Arc;

use crate::descriptor::PromptDef;

pub(crate) use index::{MAX_VALUES, Matches, PrefixIndex, fold, rank, starts_with_folded};

pub use output::{CompleteWith, CompleterOutput, CompletionCall, IntoCompletions, Source};
pub(crate) use plan::StaticIndexes;

/// How an argument is completed, when its `#[arg(complete = ...)]` says.
#[derive(Clone, Copy, Debug)]
pub enum Completer {
    /// A fixed list, filtered by prefix through an index built once.
    List(&'static [&'static str]),
    /// A function called with what the user typed so far.
    Call(fn(CompletionInput) -> CompletionCall),
}

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

/// What a completer is asked: the argument being completed, the text typed
/// so far, and the arguments the user already filled in.
#[derive(Clone, Debug)]
pub struct CompletionInput {
    pub(crate) prompt: Option<&'static PromptDef>,
    pub(crate) prompt_name: Option<String>,
    pub(crate) uri: Option<String>,
    pub(crate) argument: String,
    pub(crate) value: String,
    pub(crate) filled: Vec<(String, String)>,
}

impl CompletionInput {
    /// The text typed so far.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The name of the argument being completed.
    pub fn argument(&self) -> &str {
        &self.argument
    }

    /// The value of another argument the user already filled in
    /// (`context.arguments`, sent by clients from revision 2025-06-18 on).
    pub fn filled(&self, name: &str) -> Option<&str> {
        self.filled
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The `#[prompt]`'s definition, when completing one's argument
    /// (`None` for a [`DynamicPrompt`](crate::DynamicPrompt)'s: see
    /// [`prompt_name`](Self::prompt_name)).
    pub fn prompt(&self) -> Option<&'static PromptDef> {
        self.prompt
    }

    /// The name of the prompt whose argument is completed, whichever way
    /// it was defined; `None` when completing a resource template.
    pub fn prompt_name(&self) -> Option<&str> {
        self.prompt_name.as_deref()
    }

    /// The URI template, when completing a resource template's variable.
    pub fn uri(&self) -> Option<&str> {
        self.uri.as_deref()
    }

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
        let typed = index::fold(&self.value);
        items
            .into_iter()
            .filter(move |item| index::starts_with_folded(item, &typed))
    }
}
