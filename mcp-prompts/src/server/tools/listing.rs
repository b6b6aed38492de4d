//! What `list_prompts` returns: the prompts a caller may see and the tools
//! offer, as text for the model and, from 2025-06-18, as structured
//! content matching the tool's output schema.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::catalog::{AnyPrompt, ArgInfo};
use crate::protocol::ProtocolVersion;

/// The `CallToolResult` of `list_prompts` over `prompts`.
pub(crate) fn list_result<'a>(
    prompts: impl IntoIterator<Item = &'a AnyPrompt>,
    version: ProtocolVersion,
) -> Value {
    let prompts: Vec<Value> = prompts.into_iter().map(described).collect();
    let text = as_text(&prompts);
    let mut result = json!({ "content": [{ "type": "text", "text": text }] });
    if version.has_titles() {
        result["structuredContent"] = json!({ "prompts": prompts });
    }
    result
}

/// One prompt, as the output schema has it.
fn described(prompt: &AnyPrompt) -> Value {
    let mut entry = Map::new();
    entry.insert("name".into(), prompt.name().into());
    if let Some(title) = prompt.title() {
        entry.insert("title".into(), title.into());
    }
    if let Some(description) = prompt.description() {
        entry.insert("description".into(), description.into());
    }
    let arguments: Vec<Value> = prompt.arguments().iter().map(argument).collect();
    entry.insert("arguments".into(), arguments.into());
    Value::Object(entry)
}

fn argument(arg: &ArgInfo<'_>) -> Value {
    let mut entry = Map::new();
    entry.insert("name".into(), arg.name().into());
    if let Some(title) = arg.title() {
        entry.insert("title".into(), title.into());
    }
    if let Some(description) = arg.description() {
        entry.insert("description".into(), description.into());
    }
    entry.insert("required".into(), arg.required().into());
    if let Some(default) = arg.default() {
        entry.insert("default".into(), default.into());
    }
    if !arg.choices().is_empty() {
        entry.insert("choices".into(), arg.choices().to_vec().into());
    }
    Value::Object(entry)
}

/// The same as text, a prompt a paragraph:
///
/// ```text
/// code_review (Code review): Review a change
///   - code (required): The code to review
///   - style: one of formal, casual; default casual
/// ```
fn as_text(prompts: &[Value]) -> String {
    if prompts.is_empty() {
        return "No prompts are available.".to_owned();
    }
    let mut text = String::new();
    let field =
        |value: &Value, key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    for prompt in prompts {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&field(prompt, "name").unwrap_or_default());
        if let Some(title) = field(prompt, "title") {
            let _ = write!(text, " ({title})");
        }
        if let Some(description) = field(prompt, "description") {
            let _ = write!(text, ": {description}");
        }
        text.push('\n');
        for arg in prompt["arguments"].as_array().into_iter().flatten() {
            let _ = write!(text, "  - {}", field(arg, "name").unwrap_or_default());
            if arg["required"] == true {
                text.push_str(" (required)");
            }
            let mut notes = Vec::new();
            notes.extend(field(arg, "description"));
            if let Some(choices) = arg.get("choices").and_then(Value::as_array) {
                let choices: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
                notes.push(format!("one of {}", choices.join(", ")));
            }
            if let Some(default) = field(arg, "default") {
                notes.push(format!("default {default}"));
            }
            if !notes.is_empty() {
                let _ = write!(text, ": {}", notes.join("; "));
            }
            text.push('\n');
        }
    }
    text
}
