//! Missing required arguments, asked for with a form built from their
//! definitions, and the answer read back into the arguments.

use serde::Serialize;
use serde_json::Value;

use crate::args::param::missing_arguments;
use crate::catalog::{AnyPrompt, Words};
use crate::context::{Backchannel, Outbound};
use crate::elicit::form::{Answer, create_params, form_schema, read_answer};
use crate::error::Error;
use crate::protocol::{Arguments, ProtocolVersion};

/// The question under which missing arguments are asked for.
/// Namespaced, so that it cannot be the key of a prompt's own question.
pub(super) const MISSING_ARGUMENTS: &str = "mcp-prompts/missing-arguments";

/// The `elicitation/create` request for a prompt's missing arguments,
/// with a form built from their definitions.
#[derive(Serialize)]
pub(super) struct MissingForm {
    method: &'static str,
    params: Value,
}

impl MissingForm {
    /// The form for `prompt`'s arguments `missing`, as `version` has forms,
    /// asked in `words`.
    pub(super) fn new(
        prompt: &AnyPrompt,
        missing: &[&str],
        version: ProtocolVersion,
        words: &Words,
    ) -> Self {
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
        let message = words.needs(title, &names);
        Self {
            method: "elicitation/create",
            params: create_params(&message, &form_schema(fields, version)),
        }
    }

    /// Asks the client in the session: what the user did with the form,
    /// or -32602 naming the missing arguments if nobody could be asked.
    pub(super) async fn ask(
        self,
        outbound: &Outbound,
        route: Option<&Backchannel>,
        prompt: &str,
        missing: &[&str],
    ) -> Result<Answer, Error> {
        let answered = outbound.elicit(self.params, route).await?;
        let answer = answered.ok_or_else(|| missing_arguments(prompt, missing))?;
        read_answer(&answer)
    }
}

/// A stateless round's question: the request as the client gets it.
impl From<MissingForm> for Value {
    fn from(form: MissingForm) -> Self {
        let MissingForm { method, params } = form;
        let mut request = serde_json::Map::new();
        request.insert("method".to_owned(), method.into());
        request.insert("params".to_owned(), params);
        request.into()
    }
}

/// The arguments with the `answer` to the missing-arguments form added;
/// -32602 for the missing ones if the user declined or left any out.
pub(super) fn fill_missing<'a>(
    mut arguments: Arguments<'a>,
    answer: Answer,
    prompt: &str,
    missing: &[&str],
) -> Result<Arguments<'a>, Error> {
    let Answer::Accepted(form) = answer else {
        return Err(missing_arguments(prompt, missing));
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
