//! Missing required arguments, asked for with a form built from their
//! definitions, and the answer read back into the arguments.

use serde_json::Value;

use crate::args::param::missing_arguments;
use crate::catalog::AnyPrompt;
use crate::context::{Backchannel, Outbound};
use crate::elicit::form::{Answer, create_params, form_schema, read_answer};
use crate::error::Error;
use crate::protocol::{Arguments, ProtocolVersion};

/// The question under which missing arguments are asked for.
/// Namespaced, so that it cannot be the key of a prompt's own question.
pub(super) const MISSING_ARGUMENTS: &str = "mcp-prompts/missing-arguments";

/// Asks the client for the missing arguments with `request` (from
/// [`missing_form`]): its answer, or -32602 naming them if nobody could be
/// asked.
pub(super) async fn ask_missing(
    outbound: &Outbound,
    route: Option<&Backchannel>,
    request: &Value,
    prompt: &str,
    missing: &[&str],
) -> Result<Value, Error> {
    let answered = outbound.elicit(request["params"].clone(), route).await?;
    answered.ok_or_else(|| missing_arguments(prompt, missing))
}

/// The `elicitation/create` request for the arguments `missing`, with a
/// form built from their definitions.
pub(super) fn missing_form(
    prompt: &AnyPrompt,
    missing: &[&str],
    version: ProtocolVersion,
) -> Value {
    let arguments = prompt.arguments();
    let fields = arguments
        .into_iter()
        .filter(|arg| missing.contains(&arg.name()));
    let names = missing
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let title = prompt.title().unwrap_or(prompt.name());
    let message = format!("The prompt `{title}` needs: {names}");
    serde_json::json!({
        "method": "elicitation/create",
        "params": create_params(&message, &form_schema(fields, version)),
    })
}

/// The arguments with the answer to the missing-arguments form added;
/// -32602 for the missing ones if the user declined or left any out.
pub(super) fn fill_missing<'a>(
    mut arguments: Arguments<'a>,
    answer: &Value,
    prompt: &str,
    missing: &[&str],
) -> Result<Arguments<'a>, Error> {
    let refused = || missing_arguments(prompt, missing);
    let Answer::Accepted(form) = read_answer(answer)? else {
        return Err(refused());
    };
    for (name, value) in form.iter() {
        if missing.contains(&name) {
            arguments.insert(name.to_owned(), value.to_owned());
        }
    }
    let still: Vec<&str> = missing
        .iter()
        .copied()
        .filter(|name| arguments.get(name).is_none())
        .collect();
    if still.is_empty() {
        Ok(arguments)
    } else {
        Err(missing_arguments(prompt, &still))
    }
}
