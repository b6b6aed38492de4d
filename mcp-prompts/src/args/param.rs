use serde_json::json;

use super::PromptArg;
use crate::context::RequestContext;
use crate::descriptor::{ArgDef, ArgRange, ArgType, DefaultCheck, Input, ParamKind, PromptDef};
use crate::error::Error;

/// A type a `#[prompt]` function's parameter can have.
///
/// The type decides what the parameter is ([`ParamKind`]): any
/// [`PromptArg`] is a required argument, `Option<T>` an optional one, and
/// [`RequestContext`] is injected by the server and not an argument at all.
/// A [`PromptArgs`](crate::PromptArgs) struct is taken with
/// `#[arg(flatten)]` instead.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[prompt]` parameter",
    label = "not a prompt argument type",
    note = "a prompt argument's type implements `mcp_prompts::PromptArg`: `String`, numbers, `bool`, `char`, a `#[derive(PromptArg)]` enum, `mcp_prompts::Json<T>` for a JSON value (such as `Json<Vec<String>>`), or a type of your own (with `FromStr`, one line: `mcp_prompts::prompt_arg_from_str!(MyType);`; for a type from another crate, wrap it in a newtype of yours)",
    note = "`Option<T>` makes an argument optional; `mcp_prompts::RequestContext` is supplied by the server; a `#[derive(PromptArgs)]` struct takes `#[arg(flatten)]`"
)]
pub trait PromptParam: Sized {
    /// Whether the parameter is a required, optional or injected argument,
    /// and what its values look like.
    const TYPE: &'static ArgType;

    /// Produces the value for one call.
    fn bind(input: &Input<'_>, arg: &'static ArgDef) -> Result<Self, Error>;
}

/// Parses a value without keeping it.
fn check<T: PromptArg>(value: &str) -> Result<(), String> {
    T::parse_arg(value).map(drop)
}

impl<T: PromptArg> PromptParam for T {
    const TYPE: &'static ArgType = &ArgType {
        kind: ParamKind::Required,
        expected: T::EXPECTED,
        choices: T::CHOICES,
        check: check::<T>,
        canonical: T::canonical,
        default_check: T::DEFAULT_CHECK,
        format: T::FORMAT,
        schema_format: T::SCHEMA_FORMAT,
    };

    fn bind(input: &Input<'_>, arg: &'static ArgDef) -> Result<Self, Error> {
        match value_of(input, arg) {
            Some(value) => parse(arg, value),
            None => Err(missing(input.prompt(), arg)),
        }
    }
}

impl<T: PromptArg> PromptParam for Option<T> {
    const TYPE: &'static ArgType = &ArgType {
        kind: ParamKind::Optional,
        ..*T::TYPE
    };

    fn bind(input: &Input<'_>, arg: &'static ArgDef) -> Result<Self, Error> {
        value_of(input, arg)
            .map(|value| parse(arg, value))
            .transpose()
    }
}

impl PromptParam for RequestContext {
    const TYPE: &'static ArgType = &ArgType {
        kind: ParamKind::Injected,
        expected: "nothing: the server supplies it",
        choices: &[],
        check: |_| Err("an injected parameter takes no default".to_owned()),
        canonical: |_| None,
        default_check: DefaultCheck::NoDefault,
        format: None,
        schema_format: None,
    };

    fn bind(input: &Input<'_>, _: &'static ArgDef) -> Result<Self, Error> {
        Ok(input.context())
    }
}

fn value_of<'a>(input: &'a Input<'_>, arg: &'static ArgDef) -> Option<&'a str> {
    input.arguments().get(arg.name).or(arg.default())
}

fn parse<T: PromptArg>(arg: &ArgDef, value: &str) -> Result<T, Error> {
    let parsed = T::parse_arg(value).map_err(|reason| invalid_value(arg, &reason))?;
    match arg.range {
        Some(range) if !range.holds(value) => Err(out_of_range(arg, range, value)),
        _ => Ok(parsed),
    }
}

/// -32602 for a number outside its `#[arg(range)]`.
fn out_of_range(arg: &ArgDef, range: ArgRange, value: &str) -> Error {
    let name = arg.name;
    let expected = format!("{} {}", number_kind(arg), range.describe());
    let reason = format!("got `{}`", crate::error::excerpt(value.trim()));
    Error::invalid_params(format!(
        "invalid value for argument `{name}`: expected {expected} ({reason})"
    ))
    .with_data(json!({ "argument": name, "expected": expected, "reason": reason }))
}

/// "an integer" or "a number", for a ranged argument's message.
fn number_kind(arg: &ArgDef) -> &'static str {
    match arg.ty.default_check {
        DefaultCheck::Integer { .. } => "an integer",
        _ => "a number",
    }
}

/// -32602 naming the argument, what it expected and, for a fixed set of
/// values, every one of them.
pub(crate) fn invalid_value(arg: &ArgDef, reason: &str) -> Error {
    let (name, expected) = (arg.name, arg.ty.expected);
    // A type's own parse error may quote the value whole.
    let reason = crate::error::brief(reason);
    let mut data = json!({ "argument": name, "expected": expected, "reason": reason });
    if !arg.ty.choices.is_empty() {
        data["choices"] = json!(arg.ty.choices);
    }
    Error::invalid_params(format!(
        "invalid value for argument `{name}`: expected {expected} ({reason})"
    ))
    .with_data(data)
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
