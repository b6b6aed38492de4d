//! `render NAME [ARG=VALUE]...`: what a prompt gives, printed
//! as a person reads it or as the `prompts/get` result. A prompt that asks
//! its user is answered from `--answer`, or on the terminal.

use std::fmt::Write as _;
use std::io::{BufRead as _, Error, ErrorKind, IsTerminal as _, Write as _};

use std::sync::{Arc, Mutex, PoisonError};

use crate::caller::Access;
use crate::catalog::AnyPrompt;
use crate::error::Error as Refused;
use crate::server::{Server, Service};

use crate::testing::{Answer, Answers, Client, Question};
use serde_json::{Map, Value, json};

use super::args::{Render, RenderFormat};
use super::escape;
use super::folders::Folders;

/// Renders the prompt; the exit code: 0, or 1 when the server refuses it
/// (the same text as its `-32602`).
pub(super) async fn run(server: Server, render: &Render) -> std::io::Result<i32> {
    super::folders::check_dirs(&render.dirs)?;
    let folders = Folders::of(&render.dirs);
    // A prompt not found may be in a folder not read: said first.
    folders.tell("mcp-prompts");
    let (service, _dirs) = super::folders::load(server, &folders)?;
    if render.matrix {
        // Without `--answer` the client shows no forms, so an asking
        // prompt renders what it says to a host that cannot ask.
        let mut client = Client::new(&service);
        if let Some(lang) = &render.lang {
            client = client.language(lang.clone());
        }
        if !render.answers.is_empty() {
            client = client.answering(Answers::fields(
                render
                    .answers
                    .iter()
                    .map(|(field, value)| (field.clone(), Value::String(value.clone()))),
            ));
        }
        return match client.matrix(&render.name).await {
            Ok(document) => {
                print!("{}", printed(document, render.raw));
                Ok(0)
            }
            Err(error) => {
                eprintln!("mcp-prompts: {}", refusal(&service, &render.name, &error));
                Ok(1)
            }
        };
    }
    // A stateless client that shows forms: the test kit's, retrying each
    // round of questions with the answers. A question nobody can answer
    // here is dismissed, and said so once the request ends.
    let unanswerable: Arc<Mutex<Option<Error>>> = Arc::default();
    let given = render.answers.clone();
    let failed = Arc::clone(&unanswerable);
    let answers = Answers::with(move |question| match answer(question, &given) {
        Ok(content) => Answer::Accept(content),
        Err(error) => {
            failed
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(error);
            Answer::Cancel
        }
    });
    let mut client = Client::new(&service).stateless().answering(answers);
    if let Some(lang) = &render.lang {
        client = client.language(lang.clone());
    }
    let arguments: Map<String, Value> = render
        .arguments
        .iter()
        .map(|(name, value)| (name.clone(), Value::String(value.clone())))
        .collect();
    let params = json!({ "name": render.name, "arguments": arguments });
    let result = client.request("prompts/get", &params).await;
    if let Some(error) = unanswerable
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        return Err(error);
    }
    match result {
        // JSON escapes what it holds whatever `--raw` says: the value
        // read back is the same.
        Ok(result) if render.format == RenderFormat::Json => {
            print!("{}", shown(&result, true));
            Ok(0)
        }
        Ok(result) => {
            print!("{}", printed(shown(&result, false), render.raw));
            Ok(0)
        }
        Err(error) => {
            eprintln!("mcp-prompts: {}", refusal(&service, &render.name, &error));
            Ok(1)
        }
    }
}

/// How a refusal of prompt `name` is printed: as the server says it, and
/// for a prompt not served, the served names nearest it.
fn refusal(service: &Service, name: &str, error: &Refused) -> String {
    let said = escape::text(error.message());
    let served = service.snapshot();
    if error.code() != Refused::INVALID_PARAMS || served.get(name, &Access::Local).is_some() {
        return said;
    }
    let near = nearest(served.prompts().map(AnyPrompt::name), name);
    match near.as_slice() {
        [] => said,
        [one] => format!("{said}; did you mean `{}`?", escape::line(one)),
        several => {
            let names: Vec<String> = several
                .iter()
                .map(|name| format!("`{}`", escape::line(name)))
                .collect();
            format!("{said}; did you mean one of {}?", names.join(", "))
        }
    }
}

/// The names among `names` nearest `wanted`, nearest first, at most three:
/// those that read alike (Jaro-Winkler similarity over 0.8, as a typo
/// leaves them) or hold it whole (`review` in `code_review`).
fn nearest<'a>(names: impl Iterator<Item = &'a str>, wanted: &str) -> Vec<&'a str> {
    let mut scored: Vec<(f64, &str)> = names
        .filter_map(|name| {
            let alike = strsim::jaro_winkler(wanted, name);
            let holds = !wanted.is_empty() && name.contains(wanted);
            (alike > 0.8 || holds).then_some((alike, name))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, name)| name).collect()
}

/// A prompt's text as printed: its control characters escaped, unless
/// `--raw` asks for it as it is.
fn printed(text: String, raw: bool) -> String {
    if raw { text } else { escape::text(&text) }
}

/// The form's values for one question: each field from `--answer`, else
/// asked on the terminal.
fn answer(question: &Question, given: &[(String, String)]) -> std::io::Result<Map<String, Value>> {
    let message = question.message();
    let schema = question.schema();
    let fields = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let terminal = std::io::stdin().is_terminal();
    let mut content = Map::new();
    let mut asked = false;
    for (field, spec) in &fields {
        let text = match given.iter().find(|(name, _)| name == field) {
            Some((_, value)) => Some(value.clone()),
            None if terminal => {
                if !asked {
                    eprintln!("{}", escape::text(message));
                    asked = true;
                }
                ask(field, spec)?
            }
            None if required.contains(&field.as_str()) => {
                return Err(Error::new(
                    ErrorKind::InvalidInput,
                    format!(
                        "the prompt asks \"{message}\" and there is no terminal to answer on: \
                         give --answer {field}=VALUE"
                    ),
                ));
            }
            None => None,
        };
        if let Some(text) = text {
            content.insert(field.clone(), typed(&text, spec));
        }
    }
    Ok(content)
}

/// Asks for `field` on the terminal; `None` for an empty answer.
fn ask(field: &str, spec: &Value) -> std::io::Result<Option<String>> {
    let mut label = field.to_owned();
    if let Some(description) = spec["description"].as_str() {
        label = format!("{label} ({description})");
    }
    if let Some(choices) = spec["enum"].as_array() {
        let choices: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
        label = format!("{label} [{}]", choices.join(", "));
    }
    eprint!("  {}: ", escape::line(&label));
    std::io::stderr().flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let line = line.trim();
    Ok((!line.is_empty()).then(|| line.to_owned()))
}

/// An answer's text as the JSON its field's schema asks for.
fn typed(text: &str, spec: &Value) -> Value {
    match spec["type"].as_str() {
        Some("boolean") => match text {
            "true" | "yes" | "y" => Value::Bool(true),
            "false" | "no" | "n" => Value::Bool(false),
            _ => Value::String(text.to_owned()),
        },
        Some("integer") => text
            .parse::<i64>()
            .map_or_else(|_| Value::String(text.to_owned()), Value::from),
        Some("number") => text
            .parse::<f64>()
            .map_or_else(|_| Value::String(text.to_owned()), Value::from),
        _ => Value::String(text.to_owned()),
    }
}

/// A `prompts/get` result as printed: JSON, or each message under its
/// role.
fn shown(result: &Value, as_json: bool) -> String {
    if as_json {
        return format!("{}\n", escape::json(&format!("{result:#}")));
    }
    let mut out = String::new();
    if let Some(description) = result["description"].as_str() {
        let _ = write!(out, "{description}\n\n");
    }
    for message in result["messages"].as_array().into_iter().flatten() {
        let role = message["role"].as_str().unwrap_or("?");
        let _ = write!(
            out,
            "── {role} ──
{}

",
            content(&message["content"])
        );
    }
    out
}

/// A content block as text: the text itself, or what it is.
fn content(block: &Value) -> String {
    let field = |name: &str| block[name].as_str().unwrap_or("");
    match field("type") {
        "text" => field("text").to_owned(),
        "image" | "audio" => format!("[{} {}]", field("type"), field("mimeType")),
        "resource" => {
            let resource = &block["resource"];
            match resource["text"].as_str() {
                Some(text) => format!(
                    "[resource {}]\n{text}",
                    resource["uri"].as_str().unwrap_or("")
                ),
                None => format!("[resource {}]", resource["uri"].as_str().unwrap_or("")),
            }
        }
        "resource_link" => format!("[link {}]", field("uri")),
        other => format!("[{other}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_names_are_a_typo_s_or_those_holding_it() {
        let names = [
            "code_review",
            "summarize",
            "greet",
            "git.commit",
            "review_pr",
        ];
        assert_eq!(nearest(names.into_iter(), "sumarize"), ["summarize"]);
        assert_eq!(
            nearest(names.into_iter(), "review"),
            ["review_pr", "code_review"]
        );
        assert!(nearest(names.into_iter(), "deploy").is_empty());
        assert_eq!(nearest(names.into_iter(), "git.comit"), ["git.commit"]);
    }

    #[test]
    fn answers_are_typed_as_their_field_asks() {
        assert_eq!(typed("true", &json!({"type": "boolean"})), json!(true));
        assert_eq!(typed("12", &json!({"type": "integer"})), json!(12));
        assert_eq!(typed("1.5", &json!({"type": "number"})), json!(1.5));
        assert_eq!(typed("prod", &json!({"type": "string"})), json!("prod"));
    }

    #[test]
    fn messages_are_shown_under_their_roles() {
        let result = json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Hi"}},
            {"role": "assistant", "content": {"type": "image", "mimeType": "image/png", "data": ""}},
        ]});
        assert_eq!(
            shown(&result, false),
            "── user ──\nHi\n\n── assistant ──\n[image image/png]\n\n"
        );
    }
}
