//! Items used by the code the macros generate. Not public API: no semver
//! guarantees; may change in any release.

mod checks;
mod glue;

pub use core::option::Option::{None, Some};

pub use inventory;

pub use self::checks::{
    arg_count, check_catalog_entry, check_default, check_example, check_placeholder,
    check_range_bound, check_range_type, check_section, check_unique, check_unused_names,
    check_used, splice,
};
pub use self::glue::{
    Bind, Flat, Plain, call0, call1, call2, call3, call4, call5, call6, call7, call8, call9,
    call10, call11, call12,
};
pub use crate::args::{IntoArgText, PromptArg, PromptArgs, PromptParam};
pub use crate::caller::Caller;
pub use crate::catalog::Registration;
pub use crate::complete::CompleteWith;
pub use crate::content::Role;
pub use crate::descriptor::{
    ArgDef, ArgRange, Completer, DefaultCheck, Extended, Input, PromptDef, PromptExtras,
    Restricted, Restriction, Templated,
};
pub use crate::error::Error;
pub use crate::invoke::{Invocation, pending, ready};
pub use crate::message::Message;
pub use crate::presentation::{Icon, IconTheme, MetaValue};
pub use crate::request::{ArgsBuilder, GetPrompt};
pub use crate::skills::{EmbeddedEntry, EmbeddedFile, EmbeddedSkill};
pub use crate::template::{Part, Template, TemplateMessage};

/// Argument `index` of the prompt being called.
pub fn arg(input: &Input<'_>, index: usize) -> &'static ArgDef {
    &input.prompt().params[index]
}

/// Argument `index` of a `PromptArgs` struct.
pub fn field<T: PromptArgs>(index: usize) -> &'static ArgDef {
    &T::ARGS[index]
}

/// Sets one argument of a typed builder's request.
pub fn set<T>(request: &mut GetPrompt, name: &'static str, value: impl IntoArgText<T>) {
    request.set(name, value.into_arg_text());
}

/// Lets a typed builder fill a flattened struct's arguments.
pub fn fill<T: PromptArgs>(request: &mut GetPrompt, fill: impl FnOnce(T::Builder) -> T::Builder) {
    let taken = std::mem::replace(request, GetPrompt::new(""));
    *request = fill(<T::Builder as ArgsBuilder>::from_request(taken)).into_request();
}

/// The variant index of a choice's value, matched case-insensitively; the
/// error is the reason shown after what was expected.
pub fn choice(value: &str, accepted: &[(&str, usize)]) -> Result<usize, String> {
    let value = value.trim();
    accepted
        .iter()
        .find(|(name, _)| {
            name.eq_ignore_ascii_case(value)
                || (!value.is_ascii() && name.to_lowercase() == value.to_lowercase())
        })
        .map(|&(_, index)| index)
        .ok_or_else(|| format!("got `{}`", crate::error::excerpt(value)))
}

/// The definition behind the handle of a `#[prompt]` that failed to
/// compile; never served, since the build fails.
pub const fn placeholder_def(name: &'static str) -> PromptDef {
    PromptDef {
        name,
        title: None,
        description: None,
        params: &[],
        invoke: |_| Err(Error::internal("this prompt failed to compile")),
        file: "",
        line: 0,
        handle: core::any::TypeId::of::<PromptDef>,
    }
}
