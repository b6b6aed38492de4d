//! Rendering a dotprompt file: the arguments parsed into the types its
//! schema declares, the template rendered by Handlebars without HTML
//! escaping (as dotprompt renders prompts), and the text split into
//! messages where `{{role "..."}}` switches speaker.

use std::sync::Arc;

use handlebars::{
    Context, Handlebars, Helper, HelperResult, Output, RenderContext, Template, no_escape,
};
use serde_json::{Map, Number, Value, json};

use super::bounds::{Capped, TooDeep, check_depth};
use super::iterations::{Iterations, MAX_ITERATIONS, TICK, count_iterations, tick_helper};
use super::schema::{Field, Kind, Scalar};
use crate::content::Role;
use crate::dynamic::{ArgumentValues, Render};
use crate::error::{Error, excerpt};
use crate::message::Message;

/// The name the prompt's own template is registered under: no partial
/// can have it, as partial names come from file names.
const PROMPT: &str = "\0prompt";

/// What `{{role "x"}}` writes, to be split on: a NUL, which neither an
/// argument's value nor the file's text can hold (both are cleaned).
const MARK: char = '\0';

/// Handlebars' built-in helpers beyond `if`, `unless`, `each`, `with`.
const UNSUPPORTED_BUILTINS: [&str; 13] = [
    "lookup", "raw", "log", "eq", "ne", "gt", "gte", "lt", "lte", "and", "or", "not", "len",
];

/// A prompt's template, the partials it includes, and its arguments.
pub(crate) struct Renderer {
    registry: Handlebars<'static>,
    fields: Vec<Field>,
}

impl Renderer {
    /// A renderer of `template` with `partials` (name and template);
    /// refused if a render of them would nest too deep, so that no render
    /// can exhaust its thread's stack.
    pub(crate) fn new(
        mut template: Template,
        mut partials: Vec<(String, Template)>,
        fields: Vec<Field>,
    ) -> Result<Arc<Self>, TooDeep> {
        check_depth(&template, &|name| {
            partials.iter().find(|(n, _)| n == name).map(|(_, t)| t)
        })?;
        let mut registry = Handlebars::new();
        // Only the helpers prompt files support: a name like `len` or
        // `lookup` is then an argument, as the analysis reads it.
        for helper in UNSUPPORTED_BUILTINS {
            registry.unregister_helper(helper);
        }
        registry.register_escape_fn(no_escape);
        registry.register_helper("role", Box::new(role));
        registry.register_helper(TICK, Box::new(tick_helper));
        count_iterations(&mut template);
        for (_, partial) in &mut partials {
            count_iterations(partial);
        }
        registry.register_template(PROMPT, template);
        for (name, partial) in partials {
            registry.register_template(&name, partial);
        }
        Ok(Arc::new(Self { registry, fields }))
    }
}

impl Render for Renderer {
    /// The messages for `values`, at most `max_bytes` of text: the render
    /// stops as it passes them (-32602). A value its type refuses is
    /// -32602 too.
    fn render(&self, values: &ArgumentValues, max_bytes: usize) -> Result<Vec<Message>, Error> {
        let mut context = Map::with_capacity(self.fields.len());
        for field in &self.fields {
            if let Some(text) = values.get(&field.name) {
                context.insert(field.name.clone(), typed(field, text)?);
            }
        }
        let mut out = Capped::new(max_bytes);
        let (rendered, looped_too_often) =
            Iterations::count(|| self.registry.render_to_write(PROMPT, &context, &mut out));
        if let Err(err) = rendered {
            return Err(if out.is_full() {
                Error::result_too_large(max_bytes)
            } else if looped_too_often {
                Error::invalid_params(format!(
                    "the prompt's template goes round its loops more than {MAX_ITERATIONS} times for these arguments"
                ))
            } else {
                Error::internal(format!("the prompt file cannot be rendered: {err}"))
            });
        }
        Ok(messages(&out.into_text()))
    }
}

/// `{{role "user"}}`: a mark the rendered text is split on.
fn role(
    helper: &Helper<'_>,
    _: &Handlebars<'_>,
    _: &Context,
    _: &mut RenderContext<'_, '_>,
    out: &mut dyn Output,
) -> HelperResult {
    let role = helper
        .param(0)
        .and_then(|p| p.value().as_str())
        .unwrap_or("user");
    out.write(&format!("{MARK}{role}{MARK}"))?;
    Ok(())
}

/// The rendered text as messages: a role mark starts a new message, or
/// gives its role to one that has no text yet; messages of blanks only
/// are left out.
fn messages(text: &str) -> Vec<Message> {
    let mut messages = Vec::new();
    let mut role = Role::User;
    let mut pieces = text.split(MARK);
    let mut body = pieces.next().unwrap_or_default();
    loop {
        let Some(next) = pieces.next() else {
            push(&mut messages, role, body);
            return messages;
        };
        push(&mut messages, role, body);
        // Roles were checked when the file was read.
        role = match next {
            "model" => Role::Assistant,
            _ => Role::User,
        };
        body = pieces.next().unwrap_or_default();
    }
}

fn push(messages: &mut Vec<Message>, role: Role, body: &str) {
    if !body.trim().is_empty() {
        messages.push(Message::new(role, body.to_owned()));
    }
}

/// Text from a client or a file, with any NUL (the role mark) replaced.
pub(crate) fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains(MARK) {
        text.replace(MARK, "\u{fffd}").into()
    } else {
        text.into()
    }
}

/// The value the template sees for `text`, parsed as `field` declares.
pub(crate) fn typed(field: &Field, text: &str) -> Result<Value, Error> {
    let text = clean(text);
    match field.kind {
        Kind::Text => Ok(Value::String(text.into_owned())),
        Kind::Integer => scalar(field, Scalar::Integer, &text),
        Kind::Number => scalar(field, Scalar::Number, &text),
        Kind::Boolean => scalar(field, Scalar::Boolean, &text),
        Kind::Array(item) => {
            let Ok(Value::Array(items)) = serde_json::from_str::<Value>(&text) else {
                return Err(invalid(field, &text, "a JSON array, like [\"a\", \"b\"]"));
            };
            let items = items
                .into_iter()
                .map(|value| match (item, value) {
                    (Scalar::Text, Value::String(s)) => Ok(Value::String(clean(&s).into_owned())),
                    (Scalar::Integer, Value::Number(n)) if n.is_i64() || n.is_u64() => {
                        Ok(Value::Number(n))
                    }
                    (Scalar::Number, Value::Number(n)) => Ok(Value::Number(n)),
                    (Scalar::Boolean, Value::Bool(b)) => Ok(Value::Bool(b)),
                    _ => Err(invalid(field, &text, expected_array(item))),
                })
                .collect::<Result<_, _>>()?;
            Ok(Value::Array(items))
        }
    }
}

fn scalar(field: &Field, kind: Scalar, text: &str) -> Result<Value, Error> {
    let value = text.trim();
    let parsed = match kind {
        Scalar::Text => Some(Value::String(text.to_owned())),
        Scalar::Integer => value.parse::<i64>().ok().map(Value::from),
        Scalar::Number => value
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number),
        Scalar::Boolean => match value.to_ascii_lowercase().as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
    };
    parsed.ok_or_else(|| invalid(field, text, expected(kind)))
}

fn expected(kind: Scalar) -> &'static str {
    match kind {
        Scalar::Text => "text",
        Scalar::Integer => "an integer",
        Scalar::Number => "a number",
        Scalar::Boolean => "`true` or `false`",
    }
}

pub(crate) fn expected_array(item: Scalar) -> &'static str {
    match item {
        Scalar::Text => "a JSON array of strings",
        Scalar::Integer => "a JSON array of integers",
        Scalar::Number => "a JSON array of numbers",
        Scalar::Boolean => "a JSON array of booleans",
    }
}

/// -32602 for a value its argument's type refuses, worded as the macro's
/// typed arguments word it.
fn invalid(field: &Field, text: &str, expected: &str) -> Error {
    let name = &field.name;
    let reason = format!("got `{}`", excerpt(text.trim()));
    Error::invalid_params(format!(
        "invalid value for argument `{name}`: expected {expected} ({reason})"
    ))
    .with_data(json!({
        "argument": name,
        "expected": expected,
        "reason": reason,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_marks_split_messages_and_blank_ones_go() {
        let got = messages("\n\0system\0Be terse.\n\0user\0Hi\n\0model\0Hello\n");
        let roles: Vec<Role> = got.iter().map(Message::role).collect();
        assert_eq!(roles, [Role::User, Role::User, Role::Assistant]);
        assert_eq!(got[0].content().as_text(), Some("Be terse.\n"));
        assert_eq!(messages("").len(), 0);
    }

    #[test]
    fn values_are_parsed_as_declared() {
        let field = |kind| Field {
            name: "x".into(),
            kind,
            required: true,
            description: None,
            choices: Vec::new(),
            default: None,
            example: None,
            line: 1,
        };
        assert_eq!(typed(&field(Kind::Integer), " 42 ").unwrap(), json!(42));
        assert_eq!(typed(&field(Kind::Boolean), "TRUE").unwrap(), json!(true));
        assert_eq!(typed(&field(Kind::Number), "2.5").unwrap(), json!(2.5));
        assert_eq!(
            typed(&field(Kind::Array(Scalar::Text)), r#"["a","b"]"#).unwrap(),
            json!(["a", "b"])
        );
        let err = typed(&field(Kind::Array(Scalar::Text)), "a, b").unwrap_err();
        assert_eq!(err.code(), Error::INVALID_PARAMS);
        assert!(err.message().contains("a JSON array"), "{}", err.message());
        assert!(typed(&field(Kind::Array(Scalar::Integer)), "[1, \"2\"]").is_err());
        assert!(typed(&field(Kind::Integer), "4.5").is_err());
        // A value cannot forge a role mark.
        assert_eq!(
            typed(&field(Kind::Text), "a\0model\0b").unwrap(),
            json!("a\u{fffd}model\u{fffd}b")
        );
    }
}
