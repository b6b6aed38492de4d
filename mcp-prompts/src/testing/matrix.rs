//! Every combination of a prompt's arguments, rendered into one document
//! for a snapshot: each choice, both booleans, each optional argument left
//! out and given a sample; a free argument takes its author's example, or
//! else a placeholder naming it.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::Client;
use crate::catalog::ArgInfo;
use crate::descriptor::DefaultCheck;
use crate::error::Error;

/// The most combinations a document renders; past it, the first are
/// rendered and the document says how many there were.
pub const MAX_COMBINATIONS: usize = 64;

/// The values one argument takes across the matrix: `None` leaves it out.
fn values_of(arg: &ArgInfo<'_>) -> Vec<Option<String>> {
    let mut values: Vec<Option<String>> = if arg.choices().is_empty() {
        vec![Some(sample(arg))]
    } else {
        arg.choices()
            .iter()
            .map(|c| Some((*c).to_owned()))
            .collect()
    };
    if !arg.required() {
        values.insert(0, None);
    }
    values
}

/// The value a free argument is shown with: the author's example; else,
/// for a type the compiler knows, a value of it; else a placeholder that
/// says whose it is, so the rendering shows where the value lands.
fn sample(arg: &ArgInfo<'_>) -> String {
    if let Some(example) = arg.example() {
        return example.to_owned();
    }
    match arg.ty().map(|ty| ty.default_check) {
        Some(DefaultCheck::Integer { .. }) => "3".to_owned(),
        Some(DefaultCheck::Number) => "2.5".to_owned(),
        Some(DefaultCheck::Character) => arg.name().chars().take(1).collect(),
        _ => placeholder(arg.name()),
    }
}

fn placeholder(name: &str) -> String {
    format!("<{name}>")
}

impl Client {
    /// Renders prompt `name` over every combination of its arguments
    /// (each choice, both booleans, each optional argument absent and
    /// present; a free value is the argument's example, from
    /// `#[arg(example = ..)]` or a file's `example`, or else
    /// `<argument>`), capped at [`MAX_COMBINATIONS`], into one text
    /// document: commit it as a
    /// snapshot (with `insta::assert_snapshot!`, say) and every change to
    /// what the prompt says shows in review. A combination the prompt
    /// refuses is listed with its error. A prompt that asks its user is
    /// answered by the client's [answers](Client::answering); a client
    /// without them shows no forms, so the document holds what the prompt
    /// says to a host that cannot ask.
    ///
    /// ```
    /// use mcp_prompts::testing::Client;
    /// use mcp_prompts::{Server, catalog, prompt};
    ///
    /// /// Greet someone
    /// #[prompt]
    /// fn greet(name: String, formal: Option<bool>) -> String {
    ///     let how = if formal == Some(true) { "formally" } else { "warmly" };
    ///     format!("Greet {name} {how}.")
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let service = Server::new("t", "1").catalog(catalog![greet]).build().unwrap();
    /// let document = Client::new(&service).matrix("greet").await.unwrap();
    /// assert!(document.starts_with("# greet: 3 combinations\n"));
    /// assert!(document.contains("## name=<name> formal=true\n\nuser: Greet <name> formally.\n"));
    /// # });
    /// ```
    ///
    /// # Errors
    /// The prompt is not one the client may see.
    pub async fn matrix(&self, name: &str) -> Result<String, Error> {
        let arguments: Vec<(String, Vec<Option<String>>)> = {
            let served = self.session.service().snapshot();
            let entry = served
                .get(name, &self.access)
                .ok_or_else(|| Error::invalid_params(format!("Unknown prompt: {name}")))?;
            entry
                .prompt()
                .arguments()
                .iter()
                .map(|arg| (arg.name().to_owned(), values_of(arg)))
                .collect()
        };
        let total: usize = arguments.iter().map(|(_, values)| values.len()).product();
        let mut document = format!("# {name}: {total} combinations\n");
        if total > MAX_COMBINATIONS {
            let _ = writeln!(document, "(the first {MAX_COMBINATIONS} are rendered)");
        }
        for index in 0..total.min(MAX_COMBINATIONS) {
            let combination = combination(&arguments, index);
            let heading: Vec<String> = combination
                .iter()
                .map(|(arg, value)| format!("{arg}={value}"))
                .collect();
            let heading = if heading.is_empty() {
                "(no arguments)".to_owned()
            } else {
                heading.join(" ")
            };
            let _ = write!(document, "\n## {heading}\n\n");
            let sent: Map<String, Value> = combination
                .into_iter()
                .map(|(arg, value)| (arg, Value::String(value)))
                .collect();
            let params = serde_json::json!({ "name": name, "arguments": &sent });
            match self.request("prompts/get", &params).await {
                Ok(result) => {
                    for message in result["messages"].as_array().into_iter().flatten() {
                        let role = message["role"].as_str().unwrap_or("?");
                        let content = &message["content"];
                        let text = match content["type"].as_str() {
                            Some("text") => content["text"].as_str().unwrap_or("").to_owned(),
                            Some(kind) => format!("[{kind}]"),
                            None => "[?]".to_owned(),
                        };
                        let _ = writeln!(document, "{role}: {text}");
                    }
                }
                Err(error) => {
                    let _ = writeln!(document, "refused ({}): {}", error.code(), error.message());
                    // A placeholder the argument's type cannot parse: say
                    // how to show it with a value.
                    let refused = error.data().and_then(|data| data["argument"].as_str());
                    if let Some(argument) = refused.filter(|a| sent_placeholder(&sent, a)) {
                        let _ = writeln!(
                            document,
                            "(give `{argument}` an example: `#[arg(example = ..)]`, or `example` in its file)"
                        );
                    }
                }
            }
        }
        Ok(document)
    }
}

/// Whether `argument` was sent as its placeholder.
fn sent_placeholder(sent: &Map<String, Value>, argument: &str) -> bool {
    sent.get(argument)
        .and_then(Value::as_str)
        .is_some_and(|value| value == placeholder(argument))
}

/// Combination number `index`: each argument's value, the ones left out
/// absent.
fn combination(
    arguments: &[(String, Vec<Option<String>>)],
    mut index: usize,
) -> Vec<(String, String)> {
    let mut chosen = Vec::new();
    // The last argument varies fastest.
    let mut picks = vec![0; arguments.len()];
    for (slot, (_, values)) in arguments.iter().enumerate().rev() {
        picks[slot] = index % values.len();
        index /= values.len();
    }
    for ((name, values), pick) in arguments.iter().zip(picks) {
        if let Some(value) = &values[pick] {
            chosen.push((name.clone(), value.clone()));
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamic::DynamicArgument;

    #[test]
    fn each_value_of_each_argument_meets_each_of_the_others() {
        let tone = DynamicArgument::new("tone").choices(["formal", "casual"]);
        let note = DynamicArgument::new("note").optional();
        let arguments = vec![
            ("tone".to_owned(), values_of(&ArgInfo::from(&tone))),
            ("note".to_owned(), values_of(&ArgInfo::from(&note))),
        ];
        let all: Vec<Vec<(String, String)>> = (0..4).map(|i| combination(&arguments, i)).collect();
        let shown: Vec<String> = all
            .iter()
            .map(|c| {
                c.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(
            shown,
            [
                "tone=formal",
                "tone=formal note=<note>",
                "tone=casual",
                "tone=casual note=<note>"
            ]
        );
    }
}
