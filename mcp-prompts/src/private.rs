//! Items used by the code `#[prompt]` generates. Not public API: no semver
//! guarantees; may change in any release.

pub use core::option::Option::{None, Some};

pub use inventory;

pub use crate::Error;
pub use crate::args::{Input, PromptArg, PromptParam};
pub use crate::descriptor::{ArgDef, DefaultValue, ParamKind, PromptDef};
pub use crate::invoke::{Invocation, pending, ready};

/// Parameter `index` of the prompt being called.
pub fn arg(input: &Input<'_>, index: usize) -> &'static ArgDef {
    &input.def.arguments[index]
}

/// Checks that an argument's default parses as the parameter's type.
pub fn check_default<T: PromptArg>(text: &str) -> Result<(), String> {
    T::parse_arg(text).map(drop)
}
