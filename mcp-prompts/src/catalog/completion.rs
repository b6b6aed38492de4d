//! How each argument of a served prompt is completed, decided once when
//! the server is built: an explicit completer wins, else the type's
//! choices (enums, `bool`), else nothing.

use crate::complete::{DynCompleter, PrefixIndex};
use crate::descriptor::{ArgDef, Completer, CompletionCall, CompletionInput};
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
        match (arg.completer(), arg.get_choices()) {
            (Some(completer), _) => Self::Dyn(completer.clone()),
            (None, []) => Self::Nothing,
            (None, choices) => Self::Choices(choices.into()),
        }
    }

    pub(crate) fn is_something(&self) -> bool {
        !matches!(self, Self::Nothing)
    }
}
