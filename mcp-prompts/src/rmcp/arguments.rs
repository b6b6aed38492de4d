//! Arguments rmcp has parsed already, read by the rules our own JSON
//! reader keeps: strings as they are, numbers and booleans as their text,
//! `null` as absent, anything else an error.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::error::Error;
use crate::protocol::Arguments;
use crate::protocol::arguments::not_a_string;
use crate::server::tools::invalid_get_prompt;

/// A `prompts/get` request's `arguments`.
pub(super) fn arguments_of(sent: &Map<String, Value>) -> Result<Arguments<'_>, Error> {
    let mut arguments = Arguments::default();
    for (name, value) in sent {
        match value {
            Value::String(text) => arguments.insert(name.as_str(), text.as_str()),
            Value::Number(n) => arguments.insert(name.as_str(), n.to_string()),
            Value::Bool(b) => arguments.insert(name.as_str(), b.to_string()),
            Value::Null => {}
            Value::Array(_) | Value::Object(_) => {
                return Err(Error::invalid_params(not_a_string(name)));
            }
        }
    }
    Ok(arguments)
}

/// The `get_prompt` tool's arguments: the prompt's name and its
/// arguments. What is wrong with them is for the model to correct (an
/// `isError` result).
pub(super) fn get_prompt_arguments(
    arguments: Option<&Map<String, Value>>,
) -> Result<(Cow<'_, str>, Arguments<'_>), Error> {
    let Some(arguments) = arguments else {
        return Err(invalid_get_prompt("missing field `name`"));
    };
    let name = match arguments.get("name") {
        Some(Value::String(name)) => Cow::Borrowed(name.as_str()),
        Some(_) => return Err(invalid_get_prompt("`name` must be a string")),
        None => return Err(invalid_get_prompt("missing field `name`")),
    };
    let arguments = match arguments.get("arguments") {
        None | Some(Value::Null) => Arguments::default(),
        Some(Value::Object(sent)) => {
            arguments_of(sent).map_err(|error| invalid_get_prompt(error.message()))?
        }
        Some(_) => return Err(invalid_get_prompt("`arguments` must be an object")),
    };
    Ok((name, arguments))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{arguments_of, get_prompt_arguments};
    use crate::error::Error;
    use crate::server::tools::GetPromptArguments;

    #[test]
    fn arguments_are_read_as_our_json_reader_reads_them() {
        let sent = json!({"text": "hi", "count": 3, "flag": true, "gone": null});
        let read = arguments_of(sent.as_object().unwrap()).unwrap();
        assert_eq!(read.get("text"), Some("hi"));
        assert_eq!(read.get("count"), Some("3"));
        assert_eq!(read.get("flag"), Some("true"));
        assert_eq!(read.get("gone"), None);
        let nested = json!({"list": ["a"]});
        let error = arguments_of(nested.as_object().unwrap()).err().unwrap();
        assert_eq!(error.code(), Error::INVALID_PARAMS);
    }

    /// What rmcp's parsed tool arguments read as, against what the same
    /// JSON text reads as: the same prompt and arguments, or both refused.
    #[test]
    fn parsed_tool_arguments_read_as_their_text_does() {
        let cases = [
            json!({"name": "greet", "arguments": {"name": "Ada", "count": 2, "loud": true}}),
            json!({"name": "greet", "arguments": null}),
            json!({"name": "greet"}),
            json!({"arguments": {}}),
            json!({"name": 7}),
            json!({"name": "greet", "arguments": ["Ada"]}),
            json!({"name": "greet", "arguments": {"name": {"first": "Ada"}}}),
        ];
        for case in cases {
            let text = case.to_string();
            let from_text =
                GetPromptArguments::read(Some(&text)).map(GetPromptArguments::into_parts);
            let from_values = get_prompt_arguments(case.as_object());
            match (from_text, from_values) {
                (Ok((name_a, a)), Ok((name_b, b))) => {
                    assert_eq!(name_a, name_b, "{case}");
                    let a: Vec<_> = a.iter().collect();
                    let b: Vec<_> = b.iter().collect();
                    assert_eq!(a, b, "{case}");
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a.code(), b.code(), "{case}");
                    assert!(b.message().starts_with("invalid arguments for get_prompt"));
                }
                (a, b) => panic!("{case}: {:?} against {:?}", a.is_ok(), b.is_ok()),
            }
        }
        assert!(get_prompt_arguments(None).is_err());
    }
}
