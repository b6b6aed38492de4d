//! Every combination of a prompt's arguments, rendered into one document
//! for a snapshot: each choice, both booleans, each optional argument left
//! out and given a sample, a placeholder naming each free argument.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::Client;
use crate::error::Error;

/// The most combinations a document renders; past it, the first are
/// rendered and the document says how many there were.
pub const MAX_COMBINATIONS: usize = 64;

/// The values one argument takes across the matrix: `None` leaves it out.
fn values_of(name: &str, choices: &[&str], required: bool) -> Vec<Option<String>> {
    let mut values: Vec<Option<String>> = if choices.is_empty() {
        // A sample that says whose it is, so the rendering shows where the
        // value lands.
        vec![Some(format!("<{name}>"))]
    } else {
        choices.iter().map(|c| Some((*c).to_owned())).collect()
    };
    if !required {
        values.insert(0, None);
    }
    values
}

impl Client {
    /// Renders prompt `name` over every combination of its arguments
    /// (each choice, both booleans, each optional argument absent and
    /// present, `<argument>` for a free value), capped at
    /// [`MAX_COMBINATIONS`], into one text document: commit it as a
    /// snapshot (with `insta::assert_snapshot!`, say) and every change to
    /// what the prompt says shows in review. A combination the prompt
    /// refuses, or one that asks its user when the client has no
    /// [answers](Client::answering), is listed with why.
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
            let served = self.session.service.served();
            let entry = served
                .get(name, &self.access)
                .ok_or_else(|| Error::invalid_params(format!("Unknown prompt: {name}")))?;
            entry
                .prompt
                .arguments()
                .iter()
                .map(|arg| {
                    let values = values_of(arg.name, &arg.choices, arg.required);
                    (arg.name.to_owned(), values)
                })
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
            let params = serde_json::json!({ "name": name, "arguments": sent });
            match self.request("prompts/get", &params).await {
                Ok(result) if result["resultType"] == "input_required" => {
                    document.push_str("skipped: it asks its user, and the client has no answers\n");
                }
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
                }
            }
        }
        Ok(document)
    }
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

    #[test]
    fn each_value_of_each_argument_meets_each_of_the_others() {
        let arguments = vec![
            (
                "tone".to_owned(),
                values_of("tone", &["formal", "casual"], true),
            ),
            ("note".to_owned(), values_of("note", &[], false)),
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
