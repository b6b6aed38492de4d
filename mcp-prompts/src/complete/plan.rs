//! How each argument of a served prompt is completed, decided once when
//! the server is built: an explicit completer wins, else the type's
//! choices (enums, `bool`), else nothing.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use super::index::{Matches, PrefixIndex, rank};
use super::{Completer, CompletionCall, CompletionInput, DynCompleter, Source};
use crate::descriptor::ArgDef;
use crate::dynamic::DynamicArgument;

pub(crate) enum ArgCompletion {
    /// No completer: an empty result.
    Nothing,
    /// A fixed list (explicit or the type's choices), indexed.
    Index(PrefixIndex),
    /// A function.
    Call(fn(CompletionInput) -> CompletionCall),
    /// A run-time argument's choices: few, so filtered as they are.
    Choices(Box<[String]>),
    /// A run-time argument's completer.
    Dyn(DynCompleter),
}

impl ArgCompletion {
    pub(crate) fn for_arg(arg: &ArgDef) -> Self {
        match (arg.complete, arg.choices()) {
            (Some(Completer::List(list)), _) => Self::Index(PrefixIndex::new(list)),
            (Some(Completer::Call(call)), _) => Self::Call(call),
            (None, []) => Self::Nothing,
            (None, choices) => Self::Index(PrefixIndex::new(choices)),
        }
    }

    pub(crate) fn for_dynamic(arg: &DynamicArgument) -> Self {
        match (&arg.completer, arg.choices.as_slice()) {
            (Some(completer), _) => Self::Dyn(completer.clone()),
            (None, []) => Self::Nothing,
            (None, choices) => Self::Choices(choices.into()),
        }
    }

    pub(crate) fn is_something(&self) -> bool {
        !matches!(self, Self::Nothing)
    }
}

/// Indexes of the `&'static` lists completers return, built on first use
/// and kept: such lists are fixed, so each is indexed once.
#[derive(Default)]
pub(crate) struct StaticIndexes(RwLock<HashMap<(usize, usize), Arc<PrefixIndex>>>);

impl StaticIndexes {
    /// Filters or ranks what a completer produced.
    pub(crate) fn matches(&self, source: Source, typed: &str) -> Matches<String> {
        match source {
            Source::Values(values) => rank(values, typed),
            Source::Static(list) => {
                let found = self.index(list).complete(typed);
                Matches {
                    values: found.values.into_iter().map(str::to_owned).collect(),
                    total: found.total,
                }
            }
        }
    }

    fn index(&self, list: &'static [&'static str]) -> Arc<PrefixIndex> {
        let key = (list.as_ptr() as usize, list.len());
        let known = self
            .0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
            .cloned();
        known.unwrap_or_else(|| {
            let index = Arc::new(PrefixIndex::new(list));
            self.0
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(key, Arc::clone(&index));
            index
        })
    }
}
