use serde_json::json;

use super::{Arguments, PromptArg};
use crate::Error;
use crate::context::RequestContext;
use crate::descriptor::{ArgDef, ParamKind, PromptDef};

/// What a prompt function's parameter is bound from: the request's arguments
/// and its context.
pub struct Input<'a> {
    pub(crate) def: &'static PromptDef,
    pub(crate) arguments: &'a Arguments<'a>,
    pub(crate) context: &'a RequestContext,
}

impl Input<'_> {
    /// The prompt being called.
    pub fn prompt(&self) -> &'static PromptDef {
        self.def
    }

    /// The arguments the client sent.
    pub fn arguments(&self) -> &Arguments<'_> {
        self.arguments
    }

    /// The request's context.
    pub fn context(&self) -> &RequestContext {
        self.context
    }
}

/// A type a `#[prompt]` function's parameter can have.
///
/// The type decides what the parameter is ([`ParamKind`]): any
/// [`PromptArg`] is a required argument, `Option<T>` an optional one, and
/// [`RequestContext`] is injected by the server and not an argument at all.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[prompt]` parameter",
    label = "not a prompt argument type",
    note = "implement `mcp_prompts::PromptArg` for `{Self}` (a `FromStr` type needs one line: `mcp_prompts::prompt_arg_from_str!({Self});`), or take `Option<T>` or `mcp_prompts::RequestContext`"
)]
pub trait PromptParam: Sized {
    /// Whether the parameter is a required, optional or injected argument.
    const KIND: ParamKind;

    /// Produces the value for one call.
    fn bind(input: &Input<'_>, arg: &'static ArgDef) -> Result<Self, Error>;
}

impl<T: PromptArg> PromptParam for T {
    const KIND: ParamKind = ParamKind::Required;

    fn bind(input: &Input<'_>, arg: &'static ArgDef) -> Result<Self, Error> {
        match value_of(input, arg) {
            Some(value) => parse(arg, value),
            None => Err(missing(input.def, arg)),
        }
    }
}

impl<T: PromptArg> PromptParam for Option<T> {
    const KIND: ParamKind = ParamKind::Optional;

    fn bind(input: &Input<'_>, arg: &'static ArgDef) -> Result<Self, Error> {
        value_of(input, arg)
            .map(|value| parse(arg, value))
            .transpose()
    }
}

impl PromptParam for RequestContext {
    const KIND: ParamKind = ParamKind::Injected;

    fn bind(input: &Input<'_>, _: &'static ArgDef) -> Result<Self, Error> {
        Ok(input.context.clone())
    }
}

fn value_of<'a>(input: &'a Input<'_>, arg: &'static ArgDef) -> Option<&'a str> {
    input.arguments.get(arg.name).or(arg.default())
}

fn parse<T: PromptArg>(arg: &ArgDef, value: &str) -> Result<T, Error> {
    T::parse_arg(value).map_err(|reason| invalid_value(arg.name, T::EXPECTED, &reason))
}

/// -32602 naming the argument and what it expected.
pub(crate) fn invalid_value(name: &str, expected: &str, reason: &str) -> Error {
    Error::invalid_params(format!(
        "invalid value for argument `{name}`: expected {expected} ({reason})"
    ))
    .with_data(json!({ "argument": name, "expected": expected, "reason": reason }))
}

/// -32602 naming every missing argument.
pub(crate) fn missing_arguments(prompt: &str, names: &[&str]) -> Error {
    let list = names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    Error::invalid_params(format!(
        "missing required argument{} for prompt `{prompt}`: {list}",
        if names.len() == 1 { "" } else { "s" }
    ))
    .with_data(json!({ "prompt": prompt, "missing": names }))
}

fn missing(def: &PromptDef, arg: &ArgDef) -> Error {
    missing_arguments(def.name, &[arg.name])
}
