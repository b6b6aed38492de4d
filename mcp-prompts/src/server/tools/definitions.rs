//! The two prompt tools as `tools/list` declares them, with the fields
//! each revision has: annotations from 2025-03-26, titles and output
//! schemas from 2025-06-18.

use serde_json::{Value, json};

use crate::protocol::ProtocolVersion;

/// The tool that lists the prompts.
pub(crate) const LIST_PROMPTS: &str = "list_prompts";
/// The tool that renders one prompt.
pub(crate) const GET_PROMPT: &str = "get_prompt";

/// The `tools` of a `tools/list` result: `list_prompts` first, as it
/// needs no arguments (a client probing the first tool with `{}` gets an
/// answer, not an error).
pub(crate) fn definitions(version: ProtocolVersion) -> Value {
    json!([list_prompts(version), get_prompt(version)])
}

fn list_prompts(version: ProtocolVersion) -> Value {
    let mut tool = json!({
        "name": LIST_PROMPTS,
        "description": "List the prompts this server offers: each one's name, description and arguments (which are required, and the values an argument accepts). Call get_prompt to use one.",
        "inputSchema": { "type": "object", "properties": {}, "additionalProperties": false },
    });
    decorate(&mut tool, version, "List prompts");
    if version.has_titles() {
        tool["outputSchema"] = output_schema();
    }
    tool
}

fn get_prompt(version: ProtocolVersion) -> Value {
    let mut tool = json!({
        "name": GET_PROMPT,
        "description": "Get a prompt's messages, filled in with its arguments. list_prompts tells the names and arguments.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": { "type": "string", "description": "The prompt's name, as list_prompts gives it" },
                "arguments": {
                    "type": "object",
                    "description": "The prompt's arguments, by name; every value is text",
                    "additionalProperties": { "type": "string" },
                },
            },
            "required": ["name"],
        },
    });
    decorate(&mut tool, version, "Get a prompt");
    tool
}

/// The title and annotations, where the revision has them. Both tools only
/// read, the same answer each time, from this server alone.
fn decorate(tool: &mut Value, version: ProtocolVersion, title: &str) {
    if version >= ProtocolVersion::V2025_03_26 {
        tool["annotations"] = json!({
            "readOnlyHint": true,
            "idempotentHint": true,
            "openWorldHint": false,
        });
    }
    if version.has_titles() {
        tool["title"] = title.into();
    }
}

/// What `list_prompts` returns as structured content: prompts, each with
/// its arguments, both named, titled and described alike.
fn output_schema() -> Value {
    let text = json!({ "type": "string" });
    let described = |mut properties: Value, required: &[&str]| {
        properties["name"] = text.clone();
        properties["title"] = text.clone();
        properties["description"] = text.clone();
        json!({ "type": "object", "properties": properties, "required": required })
    };
    let argument = described(
        json!({
            "required": { "type": "boolean" },
            "default": text,
            "choices": { "type": "array", "items": text },
        }),
        &["name", "required"],
    );
    let prompt = described(
        json!({ "arguments": { "type": "array", "items": argument } }),
        &["name", "arguments"],
    );
    json!({
        "type": "object",
        "properties": { "prompts": { "type": "array", "items": prompt } },
        "required": ["prompts"],
    })
}
