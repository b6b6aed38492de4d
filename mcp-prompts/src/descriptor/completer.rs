//! The completer's signature: what `#[arg(complete = ...)]` puts in an
//! [`ArgDef`](super::ArgDef), what it is called with, what it returns. The
//! input names the [`PromptDef`] whose definition names the completer, so
//! they share a module.

use super::PromptDef;
use crate::error::Error;
use crate::invoke::BoxedResult;

/// How an argument is completed, when its `#[arg(complete = ...)]` says.
#[derive(Clone, Copy, Debug)]
pub enum Completer {
    /// A fixed list, filtered by prefix through an index built once.
    List(&'static [&'static str]),
    /// A function called with what the user typed so far.
    Call(fn(CompletionInput) -> CompletionCall),
}

/// What a completer is asked: the argument being completed, the text typed
/// so far, and the arguments the user already filled in.
#[derive(Clone, Debug)]
pub struct CompletionInput {
    prompt: Option<&'static PromptDef>,
    prompt_name: Option<String>,
    uri: Option<String>,
    argument: String,
    value: String,
    filled: Vec<(String, String)>,
}

impl CompletionInput {
    /// What completing `argument` of a prompt (`prompt_name`, and `prompt`
    /// for a `#[prompt]`) or of a resource template (`uri`) asks, with
    /// `value` typed so far and the arguments `filled` in already.
    pub(crate) fn new(
        (prompt, prompt_name, uri): (Option<&'static PromptDef>, Option<String>, Option<String>),
        argument: String,
        value: String,
        filled: Vec<(String, String)>,
    ) -> Self {
        Self {
            prompt,
            prompt_name,
            uri,
            argument,
            value,
            filled,
        }
    }

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
}

/// Values a completer produced.
#[derive(Debug)]
pub enum Source {
    /// A fixed list: filtered by prefix through an index.
    Static(&'static [&'static str]),
    /// Computed values: ranked, not filtered.
    Values(Vec<String>),
}

/// A completer's result, now or later.
pub enum CompletionCall {
    /// A sync completer's values.
    Ready(Result<Source, Error>),
    /// An async completer's values.
    Pending(BoxedResult<Source>),
}
