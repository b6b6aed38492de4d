//! `input.schema` of a dotprompt file: the arguments it declares, in
//! Picoschema (`name: string, description`; `name?` optional;
//! `name(enum, description): [A, B]`; `name(array, description): string`)
//! or as a JSON Schema object, read into what MCP can carry: each argument
//! a string the server parses into the type declared.

use yaml_serde::Value;

use crate::files::front_matter::Broken;

/// What an argument's text is parsed into before the template sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Text as sent (`string`, `any`, and an enum's choice).
    Text,
    /// A whole number.
    Integer,
    /// A number.
    Number,
    /// `true` or `false`, case aside.
    Boolean,
    /// A JSON array whose items are all of this scalar kind.
    Array(Scalar),
}

/// The kinds an array's items may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
    Text,
    Integer,
    Number,
    Boolean,
}

/// One declared argument.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Field {
    pub(super) name: String,
    pub(super) kind: Kind,
    pub(super) required: bool,
    pub(super) description: Option<String>,
    /// An enum's values, as text.
    pub(super) choices: Vec<String>,
    /// The value used when the client sends none (`input.default`).
    pub(super) default: Option<String>,
    /// A value to show the argument with: a JSON Schema property's first
    /// `examples` entry (Picoschema has none).
    pub(super) example: Option<String>,
    /// The file's line the field is declared on.
    pub(super) line: usize,
}

/// The fields `schema` declares; `line_of` finds a key's line in the file,
/// `line` is the line of `input` itself.
pub(crate) fn fields(
    schema: &Value,
    line: usize,
    line_of: &dyn Fn(&str) -> Option<usize>,
) -> Result<Vec<Field>, Broken> {
    let Value::Mapping(map) = schema else {
        return Err(Broken::at(
            line,
            "`input.schema` must map each argument's name to its type (`topic: string`); MCP has no arguments but named ones",
        ));
    };
    if map
        .get("type")
        .is_some_and(|t| t.as_str() == Some("object"))
        && map.get("properties").is_some()
    {
        return json_schema(map, line, line_of);
    }
    let mut fields = Vec::with_capacity(map.len());
    for (key, value) in map {
        let Some(key) = key.as_str() else {
            return Err(Broken::at(
                line,
                "`input.schema` keys must be argument names",
            ));
        };
        let at = line_of(key).unwrap_or(line);
        fields.push(picoschema_field(key, value, at)?);
    }
    Ok(fields)
}

/// One Picoschema entry: `key: value`.
fn picoschema_field(key: &str, value: &Value, line: usize) -> Result<Field, Broken> {
    let broken = |message: String| Broken::at(line, format!("`input.schema`: {message}"));
    let (name, paren) = match key.split_once('(') {
        Some((name, rest)) => {
            let Some(inner) = rest.strip_suffix(')') else {
                return Err(broken(format!("`{key}` has an unclosed `(`")));
            };
            (name.trim(), Some(inner))
        }
        None => (key.trim(), None),
    };
    let (name, required) = match name.strip_suffix('?') {
        Some(name) => (name, false),
        None => (name, true),
    };
    if name == "*" {
        return Err(broken(
            "`(*)` (any other argument) is not supported: declare each argument".into(),
        ));
    }
    let mut field = Field {
        name: name.to_owned(),
        kind: Kind::Text,
        required,
        description: None,
        choices: Vec::new(),
        default: None,
        example: None,
        line,
    };
    match paren {
        None => {
            let Some(text) = value.as_str() else {
                return Err(broken(format!(
                    "`{name}` is an object, which an MCP argument cannot carry; supported types: string, integer, number, boolean, any, enum and arrays of scalars"
                )));
            };
            let (ty, description) = type_and_description(text);
            field.kind = scalar(ty)
                .map(Kind::from)
                .ok_or_else(|| broken(unsupported(name, ty)))?;
            field.description = description;
        }
        Some(inner) => {
            let (ty, description) = type_and_description(inner);
            field.description = description;
            match ty {
                "enum" => {
                    let Some(values) = value.as_sequence() else {
                        return Err(broken(format!("`{name}(enum)` takes a list of values")));
                    };
                    for value in values {
                        match scalar_text(value) {
                            Some(text) => field.choices.push(text),
                            // dotprompt lets an optional enum hold null.
                            None if value.is_null() => {}
                            None => {
                                return Err(broken(format!(
                                    "`{name}(enum)` lists a value that is not a string, number or boolean"
                                )));
                            }
                        }
                    }
                }
                "array" => {
                    let item = value.as_str().map(type_and_description);
                    let item = item.and_then(|(ty, _)| scalar(ty));
                    let Some(item) = item else {
                        return Err(broken(format!(
                            "`{name}(array)` must hold a scalar type (string, integer, number or boolean): arrays of objects are not supported"
                        )));
                    };
                    field.kind = Kind::Array(item);
                }
                other => return Err(broken(unsupported(name, other))),
            }
        }
    }
    Ok(field)
}

/// A JSON Schema object's properties.
fn json_schema(
    map: &yaml_serde::Mapping,
    line: usize,
    line_of: &dyn Fn(&str) -> Option<usize>,
) -> Result<Vec<Field>, Broken> {
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_sequence)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(Value::Mapping(properties)) = map.get("properties") else {
        return Err(Broken::at(
            line,
            "`input.schema`: `properties` must be a map",
        ));
    };
    let mut fields = Vec::with_capacity(properties.len());
    for (key, property) in properties {
        let Some(name) = key.as_str() else {
            return Err(Broken::at(
                line,
                "`input.schema` keys must be argument names",
            ));
        };
        let at = line_of(name).unwrap_or(line);
        let broken = |message: String| Broken::at(at, format!("`input.schema`: {message}"));
        let ty = property
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("string");
        let kind = match ty {
            "array" => {
                let item = property.get("items").and_then(|i| i.get("type"));
                let item = item.and_then(Value::as_str).and_then(scalar);
                Kind::Array(item.ok_or_else(|| {
                    broken(format!("`{name}`: only arrays of strings, integers, numbers or booleans are supported"))
                })?)
            }
            ty => scalar(ty)
                .map(Kind::from)
                .ok_or_else(|| broken(unsupported(name, ty)))?,
        };
        let choices = property
            .get("enum")
            .and_then(Value::as_sequence)
            .map(|values| values.iter().filter_map(scalar_text).collect())
            .unwrap_or_default();
        fields.push(Field {
            name: name.to_owned(),
            kind,
            required: required.contains(&name),
            description: property
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            choices,
            default: None,
            example: property
                .get("examples")
                .and_then(Value::as_sequence)
                .and_then(|examples| examples.first())
                .and_then(scalar_text),
            line: at,
        });
    }
    Ok(fields)
}

impl Field {
    /// Why `default` cannot be this argument's value, if it is not one of
    /// its choices (its type is the renderer's to check).
    pub(crate) fn check_choice(&self, default: &str) -> Result<(), String> {
        let name = &self.name;
        if self.choices.is_empty() || self.choices.iter().any(|c| c.eq_ignore_ascii_case(default)) {
            return Ok(());
        }
        Err(format!(
            "`input.default` of `{name}` is `{default}`, not one of its values: {}",
            self.choices.join(", ")
        ))
    }
}

/// `string, the description` as its type and description.
fn type_and_description(text: &str) -> (&str, Option<String>) {
    match text.split_once(',') {
        Some((ty, description)) => (ty.trim(), Some(description.trim().to_owned())),
        None => (text.trim(), None),
    }
}

fn scalar(ty: &str) -> Option<Scalar> {
    match ty {
        "string" | "any" => Some(Scalar::Text),
        "integer" => Some(Scalar::Integer),
        "number" => Some(Scalar::Number),
        "boolean" => Some(Scalar::Boolean),
        _ => None,
    }
}

impl From<Scalar> for Kind {
    fn from(scalar: Scalar) -> Self {
        match scalar {
            Scalar::Text => Self::Text,
            Scalar::Integer => Self::Integer,
            Scalar::Number => Self::Number,
            Scalar::Boolean => Self::Boolean,
        }
    }
}

fn unsupported(name: &str, ty: &str) -> String {
    format!(
        "`{name}` has type `{ty}`, which is not supported; supported: string, integer, number, boolean, any, enum and arrays of those"
    )
}

/// A YAML scalar as the text a client would send for it.
pub(crate) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> Result<Vec<Field>, Broken> {
        let value: Value = yaml_serde::from_str(yaml).unwrap();
        fields(&value, 1, &|_| None)
    }

    #[test]
    fn picoschema_declares_typed_arguments() {
        let fields = read(
            "topic: string, what to write about\nwords?: integer\nstyle(enum, how it reads): [formal, casual]\ntags(array, labels): string\nready?: boolean\n",
        )
        .unwrap();
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["topic", "words", "style", "tags", "ready"]);
        assert_eq!(
            fields[0].description.as_deref(),
            Some("what to write about")
        );
        assert!(fields[0].required && !fields[1].required);
        assert_eq!(fields[1].kind, Kind::Integer);
        assert_eq!(fields[2].choices, ["formal", "casual"]);
        assert_eq!(fields[2].description.as_deref(), Some("how it reads"));
        assert_eq!(fields[3].kind, Kind::Array(Scalar::Text));
        assert_eq!(fields[4].kind, Kind::Boolean);
        // Descriptions keep their commas.
        let commas = read("x: number, a, b").unwrap();
        assert_eq!(commas[0].description.as_deref(), Some("a, b"));
    }

    #[test]
    fn a_json_schema_object_is_read_too() {
        let fields = read(
            "type: object\nproperties:\n  topic: {type: string, description: what}\n  n: {type: integer}\n  tags: {type: array, items: {type: string}}\nrequired: [topic]\n",
        )
        .unwrap();
        assert_eq!(fields.len(), 3);
        assert!(fields[0].required && !fields[1].required);
        assert_eq!(fields[2].kind, Kind::Array(Scalar::Text));
    }

    #[test]
    fn what_an_mcp_argument_cannot_carry_is_a_problem() {
        for yaml in [
            "x: date",
            "x(object): {a: string}",
            "x(array): {a: string}",
            "(*): string",
            "x: {a: string}",
            "x(enum): nope",
            "string",
        ] {
            assert!(read(yaml).is_err(), "{yaml}");
        }
    }
}
