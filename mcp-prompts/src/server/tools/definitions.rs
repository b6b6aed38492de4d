//! The two prompt tools as `tools/list` declares them, with the fields
//! each revision has: annotations from 2025-03-26, titles and output
//! schemas from 2025-06-18. Their schemas are fixed JSON Schema
//! documents, kept as the text they are.

use std::sync::LazyLock;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::catalog::Words;
use crate::protocol::ProtocolVersion;

/// The tool that lists the prompts.
pub(crate) const LIST_PROMPTS: &str = "list_prompts";
/// The tool that renders one prompt.
pub(crate) const GET_PROMPT: &str = "get_prompt";

/// One tool, as `tools/list` declares it to a client of one revision.
#[derive(Serialize)]
pub(crate) struct ToolDefinition<'w> {
    name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'w str>,
    description: &'w str,
    #[serde(rename = "inputSchema")]
    input_schema: &'static RawValue,
    #[serde(rename = "outputSchema", skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'static RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<Hints>,
}

/// The annotations of both tools: they only read, the same answer each
/// time, from this server alone.
#[derive(Clone, Copy, Serialize)]
struct Hints {
    #[serde(rename = "readOnlyHint")]
    read_only: bool,
    #[serde(rename = "idempotentHint")]
    idempotent: bool,
    #[serde(rename = "openWorldHint")]
    open_world: bool,
}

const LIST_PROMPTS_INPUT: &str =
    r#"{"type":"object","properties":{},"additionalProperties":false}"#;

const GET_PROMPT_INPUT: &str = r#"{
  "type": "object",
  "properties": {
    "name": { "type": "string", "description": "The prompt's name, as list_prompts gives it" },
    "arguments": {
      "type": "object",
      "description": "The prompt's arguments, by name; every value is text",
      "additionalProperties": { "type": "string" }
    }
  },
  "required": ["name"]
}"#;

/// What `list_prompts` returns as structured content: prompts, each with
/// its arguments, both named, titled and described alike.
const LIST_PROMPTS_OUTPUT: &str = r#"{
  "type": "object",
  "properties": {
    "prompts": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "arguments": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "required": { "type": "boolean" },
                "default": { "type": "string" },
                "choices": { "type": "array", "items": { "type": "string" } },
                "name": { "type": "string" },
                "title": { "type": "string" },
                "description": { "type": "string" }
              },
              "required": ["name", "required"]
            }
          },
          "name": { "type": "string" },
          "title": { "type": "string" },
          "description": { "type": "string" }
        },
        "required": ["name", "arguments"]
      }
    }
  },
  "required": ["prompts"]
}"#;

/// The documents above, each written once on one line (a message is one
/// line on stdio).
static SCHEMAS: LazyLock<[Box<RawValue>; 3]> = LazyLock::new(|| {
    [LIST_PROMPTS_INPUT, GET_PROMPT_INPUT, LIST_PROMPTS_OUTPUT].map(|text| {
        // Fixed documents, each read by a test.
        let value: serde_json::Value = serde_json::from_str(text).expect("a fixed schema is JSON");
        RawValue::from_string(value.to_string()).expect("JSON written is JSON")
    })
});

/// The tools of a `tools/list` result, their titles and descriptions in
/// `words`: `list_prompts` first, as it needs no arguments (a client
/// probing the first tool with `{}` gets an answer, not an error).
pub(crate) fn definitions(version: ProtocolVersion, words: &Words) -> [ToolDefinition<'_>; 2] {
    let [list_input, get_input, list_output] = &*SCHEMAS;
    let titled = version.has_titles();
    let annotations = (version >= ProtocolVersion::V2025_03_26).then_some(Hints {
        read_only: true,
        idempotent: true,
        open_world: false,
    });
    let (list_title, list_description) = words.list_prompts();
    let (get_title, get_description) = words.get_prompt();
    [
        ToolDefinition {
            name: LIST_PROMPTS,
            title: titled.then_some(list_title),
            description: list_description,
            input_schema: list_input,
            output_schema: titled.then_some(&**list_output),
            annotations,
        },
        ToolDefinition {
            name: GET_PROMPT,
            title: titled.then_some(get_title),
            description: get_description,
            input_schema: get_input,
            output_schema: None,
            annotations,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_revision_declares_the_fields_it_has() {
        let english = Words::default();
        let tools = |version| serde_json::to_value(definitions(version, &english)).unwrap();
        let latest = tools(ProtocolVersion::LATEST);
        assert_eq!(latest[0]["name"], LIST_PROMPTS);
        assert_eq!(latest[0]["title"], "List prompts");
        assert_eq!(latest[0]["outputSchema"]["required"][0], "prompts");
        assert_eq!(latest[1]["inputSchema"]["required"][0], "name");
        assert_eq!(latest[1]["annotations"]["readOnlyHint"], true);
        let oldest = tools(ProtocolVersion::V2024_11_05);
        assert!(oldest[0].get("title").is_none());
        assert!(oldest[0].get("outputSchema").is_none());
        assert!(oldest[1].get("annotations").is_none());
        let line = serde_json::to_string(&definitions(ProtocolVersion::LATEST, &english)).unwrap();
        assert!(!line.contains('\n'), "one line: {line}");
    }
}
