//! Form elicitation on the wire: the `requestedSchema` of a form built from
//! argument definitions, the `elicitation/create` params, and the client's
//! answer read back into argument text.

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::catalog::ArgInfo;
use crate::descriptor::DefaultCheck;
use crate::error::{Error, excerpt};
use crate::protocol::{Arguments, ProtocolVersion};

/// The JSON Schema of a form with one field per argument: each field's
/// type, bounds, choices, title, description and default come from the
/// argument's type and attributes; arguments without a default that are
/// not `Option`s are required. Before 2025-11-25 only a boolean field may
/// show a default.
pub(crate) fn form_schema<'a>(
    fields: impl IntoIterator<Item = ArgInfo<'a>>,
    version: ProtocolVersion,
) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for arg in fields {
        if arg.injected() {
            continue;
        }
        let mut field = field_schema(&arg);
        if version < ProtocolVersion::V2025_11_25 && field["type"] != "boolean" {
            if let Some(field) = field.as_object_mut() {
                field.remove("default");
            }
        }
        properties.insert(arg.name().to_owned(), field);
        if arg.required() {
            required.push(arg.name());
        }
    }
    let mut schema = json!({ "type": "object", "properties": properties });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

fn field_schema(arg: &ArgInfo<'_>) -> Value {
    // A run-time argument is text, with or without choices.
    let check = arg
        .ty()
        .map_or(DefaultCheck::Anything, |ty| ty.default_check);
    let boolean = arg.choices() == ["true", "false"];
    let mut field = match check {
        _ if boolean => json!({ "type": "boolean" }),
        DefaultCheck::Integer { signed, bits } => integer_schema(signed, bits),
        DefaultCheck::Number => json!({ "type": "number" }),
        DefaultCheck::Character => json!({ "type": "string", "minLength": 1, "maxLength": 1 }),
        _ if !arg.choices().is_empty() => json!({ "type": "string", "enum": arg.choices() }),
        _ => match arg.ty().and_then(|ty| ty.schema_format) {
            Some(format) => json!({ "type": "string", "format": format }),
            None => json!({ "type": "string" }),
        },
    };
    if let Some(range) = arg.range() {
        // The author's bounds, within the type's.
        let bound = |text: Option<&str>| text.and_then(|t| serde_json::from_str::<Value>(t).ok());
        if let Some(min) = bound(range.min) {
            field["minimum"] = min;
        }
        if let Some(max) = bound(range.max) {
            field["maximum"] = max;
        }
    }
    if let Some(title) = arg.title() {
        field["title"] = title.into();
    }
    if let Some(description) = arg.description() {
        field["description"] = description.into();
    }
    if let Some(default) = arg.default() {
        let text = arg
            .ty()
            .and_then(|ty| (ty.canonical)(default))
            .unwrap_or(default);
        field["default"] = typed_default(&field, text);
    }
    field
}

/// `integer`, with the type's range where JSON numbers hold it exactly.
fn integer_schema(signed: bool, bits: u32) -> Value {
    if bits > 53 {
        return if signed {
            json!({ "type": "integer" })
        } else {
            json!({ "type": "integer", "minimum": 0 })
        };
    }
    let (min, max): (i64, i64) = if signed {
        (-(1_i64 << (bits - 1)), (1_i64 << (bits - 1)) - 1)
    } else {
        (0, (1_i64 << bits) - 1)
    };
    json!({ "type": "integer", "minimum": min, "maximum": max })
}

/// A default as a value of the field's JSON type.
fn typed_default(field: &Value, text: &str) -> Value {
    match field["type"].as_str() {
        Some("boolean") => Value::Bool(text.trim().eq_ignore_ascii_case("true")),
        Some("integer" | "number") => serde_json::from_str(text.trim()).unwrap_or(text.into()),
        _ => text.into(),
    }
}

/// The params of an `elicitation/create` form request.
pub(crate) fn create_params(message: &str, schema: &Value) -> Value {
    json!({ "message": message, "requestedSchema": schema })
}

/// What the user did with a form.
#[derive(Debug)]
pub(crate) enum Answer {
    /// Submitted, with the fields' values as argument text.
    Accepted(Arguments<'static>),
    Declined,
    Cancelled,
}

/// Reads an `ElicitResult`: `{"action": "accept" | "decline" | "cancel",
/// "content"?: {field: string | number | boolean}}`.
pub(crate) fn read_answer(result: &Value) -> Result<Answer, Error> {
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => {}
        Some("decline") => return Ok(Answer::Declined),
        Some("cancel") => return Ok(Answer::Cancelled),
        Some(other) => {
            return Err(Error::invalid_params(format!(
                "invalid elicitation action `{}`: expected accept, decline or cancel",
                excerpt(other)
            )));
        }
        None => {
            return Err(Error::invalid_params(
                "the elicitation result has no `action`",
            ));
        }
    }
    let mut arguments = Arguments::default();
    let content = match result.get("content") {
        None | Some(Value::Null) => return Ok(Answer::Accepted(arguments)),
        Some(Value::Object(content)) => content,
        Some(_) => {
            return Err(Error::invalid_params(
                "the elicitation result's `content` must be an object",
            ));
        }
    };
    for (name, value) in content {
        let text: Cow<'static, str> = match value {
            Value::Null => continue,
            Value::String(text) => text.clone().into(),
            Value::Bool(flag) => flag.to_string().into(),
            Value::Number(number) => number.to_string().into(),
            Value::Array(_) | Value::Object(_) => {
                return Err(Error::invalid_params(format!(
                    "field `{}` of the elicitation result must be a string, number or boolean",
                    excerpt(name)
                )));
            }
        };
        arguments.insert(name.clone(), text);
    }
    Ok(Answer::Accepted(arguments))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::PromptParam;
    use crate::descriptor::ArgDef;

    fn arg(name: &'static str, ty: &'static crate::descriptor::ArgType) -> ArgDef {
        ArgDef {
            name,
            title: "",
            description: "",
            default: None,
            example: "",
            range: None,
            ty,
            complete: None,
        }
    }

    #[test]
    fn schema_follows_the_types() {
        let mut flag = arg("canary", <Option<bool> as PromptParam>::TYPE);
        flag.default = Some("false");
        flag.description = "Deploy as a canary first";
        let fields = [
            arg("count", <u8 as PromptParam>::TYPE),
            arg("ratio", <Option<f64> as PromptParam>::TYPE),
            flag,
            arg("name", <String as PromptParam>::TYPE),
            arg("ctx", <crate::context::RequestContext as PromptParam>::TYPE),
        ];
        let schema = form_schema(fields.iter().map(ArgInfo::from), ProtocolVersion::MODERN);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "count": { "type": "integer", "minimum": 0, "maximum": 255 },
                    "ratio": { "type": "number" },
                    "canary": { "type": "boolean", "description": "Deploy as a canary first", "default": false },
                    "name": { "type": "string" },
                },
                "required": ["count", "name"],
            })
        );
    }

    #[test]
    fn defaults_other_than_booleans_wait_for_2025_11_25() {
        let mut count = arg("count", <u8 as PromptParam>::TYPE);
        count.default = Some("3");
        let mut flag = arg("flag", <bool as PromptParam>::TYPE);
        flag.default = Some("true");
        let fields = [count, flag];
        let old = form_schema(
            fields.iter().map(ArgInfo::from),
            ProtocolVersion::V2025_06_18,
        );
        assert!(old["properties"]["count"].get("default").is_none(), "{old}");
        assert_eq!(old["properties"]["flag"]["default"], true);
        let new = form_schema(
            fields.iter().map(ArgInfo::from),
            ProtocolVersion::V2025_11_25,
        );
        assert_eq!(new["properties"]["count"]["default"], 3);
    }

    #[test]
    fn answers_become_argument_text() {
        let Answer::Accepted(args) = read_answer(
            &json!({ "action": "accept", "content": { "a": "x", "b": 5, "c": true, "d": null } }),
        )
        .unwrap() else {
            panic!("not accepted");
        };
        assert_eq!(
            (args.get("a"), args.get("b"), args.get("c"), args.get("d")),
            (Some("x"), Some("5"), Some("true"), None)
        );
        assert!(matches!(
            read_answer(&json!({ "action": "decline" })),
            Ok(Answer::Declined)
        ));
        assert!(matches!(
            read_answer(&json!({ "action": "cancel" })),
            Ok(Answer::Cancelled)
        ));
        assert!(read_answer(&json!({ "action": "maybe" })).is_err());
        assert!(read_answer(&json!({ "action": "accept", "content": { "a": [1] } })).is_err());
    }
}
