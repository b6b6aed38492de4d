//! Templates given at run time: the same syntax as
//! `#[prompt(template = ...)]`, parsed and checked against the prompt's
//! arguments when the prompt is built, rendered on each call.

use mcp_prompts_template::{Names, ParseError, parse_checked};

use super::argument::ArgumentValues;
use super::{DynamicArgument, Render};
use crate::content::Role;
use crate::error::Error;
use crate::message::Message;

/// A parsed template whose placeholders all name declared arguments.
#[derive(Debug)]
pub(crate) struct RuntimeTemplate {
    messages: Vec<mcp_prompts_template::Message>,
    /// The arguments whose choices are `true` and `false`: a section on
    /// one is hidden by `false`, as on a `bool` of the macro's.
    flags: Vec<String>,
}

/// Why a template cannot be used, and on which line of its text.
#[derive(Debug)]
pub(crate) struct TemplateError {
    pub(super) line: usize,
    pub(super) message: String,
}

impl RuntimeTemplate {
    /// Parses `text`; every placeholder must be one of `arguments`, every
    /// section one of the optional ones.
    pub(crate) fn parse(text: &str, arguments: &[DynamicArgument]) -> Result<Self, TemplateError> {
        let messages = parse_checked(text, &Declared(arguments)).map_err(
            |ParseError { line, mut message }| {
                if message.ends_with("names no argument") {
                    let declared: Vec<&str> = arguments.iter().map(|a| a.name.as_str()).collect();
                    if declared.is_empty() {
                        message.push_str("; the prompt declares no arguments");
                    } else {
                        message.push_str("; the arguments are: ");
                        message.push_str(&declared.join(", "));
                    }
                }
                TemplateError { line, message }
            },
        )?;
        let flags = arguments
            .iter()
            .filter(|arg| {
                let mut choices: Vec<String> =
                    arg.choices.iter().map(|c| c.to_ascii_lowercase()).collect();
                choices.sort();
                choices == ["false", "true"]
            })
            .map(|arg| arg.name.clone())
            .collect();
        Ok(Self { messages, flags })
    }

    /// The messages, each placeholder replaced by its argument's value (an
    /// optional argument without one renders as nothing); `None` past
    /// `max_bytes` of text, before it is spent.
    fn messages(&self, values: &ArgumentValues, max_bytes: usize) -> Option<Vec<Message>> {
        let is_set = |name: &str| {
            let value = values.get(name).unwrap_or_default();
            let off =
                self.flags.iter().any(|flag| flag == name) && value.eq_ignore_ascii_case("false");
            !(value.trim().is_empty() || off)
        };
        let mut left = max_bytes;
        let mut messages = Vec::with_capacity(self.messages.len());
        for message in &self.messages {
            let text = mcp_prompts_template::render(
                &message.parts,
                |name| values.get(name).unwrap_or(""),
                is_set,
                left,
            )?;
            left -= text.len();
            // A message left with no text (its sections hidden) is left out.
            if !text.is_empty() {
                messages.push(Message::new(Role::of_template(message.role), text));
            }
        }
        Some(messages)
    }
}

impl Render for RuntimeTemplate {
    fn render(&self, values: &ArgumentValues, max_bytes: usize) -> Result<Vec<Message>, Error> {
        self.messages(values, max_bytes)
            .ok_or_else(|| Error::result_too_large(max_bytes))
    }
}

/// The arguments a run-time template may use.
struct Declared<'a>(&'a [DynamicArgument]);

impl Names for Declared<'_> {
    fn knows(&self, name: &str) -> bool {
        self.0.iter().any(|arg| arg.name == name)
    }

    fn may_be_unset(&self, name: &str) -> bool {
        self.0.iter().any(|arg| arg.name == name && !arg.required)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Arguments;

    #[test]
    fn renders_values_and_defaults() {
        let args = [
            DynamicArgument::new("who"),
            DynamicArgument::new("mood").default("ok"),
        ];
        let template =
            RuntimeTemplate::parse("Hi {who}, {{mood}}: {mood}\n--- assistant\nSure.", &args)
                .unwrap();
        let mut sent = Arguments::default();
        sent.insert("who", "Ada");
        let values = ArgumentValues::read(&args, &sent).unwrap();
        let messages = template.messages(&values, usize::MAX).unwrap();
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[0].content().as_text(), Some("Hi Ada, {mood}: ok"));
        assert_eq!(messages[1].role(), Role::Assistant);
    }

    #[test]
    fn an_unknown_placeholder_is_an_error_with_its_line() {
        let args = [DynamicArgument::new("who")];
        let error = RuntimeTemplate::parse("Hi {who} {{whom}}\nand {whom}", &args).unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.message.contains("`{whom}`"), "{}", error.message);
        assert!(error.message.contains("who"), "{}", error.message);
        assert_eq!(RuntimeTemplate::parse("a }", &args).unwrap_err().line, 1);
    }

    #[test]
    fn sections_show_over_optional_arguments_with_a_value() {
        let args = [
            DynamicArgument::new("topic"),
            DynamicArgument::new("focus").optional(),
        ];
        let text = "Write about {topic}.\n{#focus}\nFocus on {focus}.\n{/focus}\nBe brief.";
        let template = RuntimeTemplate::parse(text, &args).unwrap();
        let render = |pairs: &[(&str, &str)]| {
            let mut sent = Arguments::default();
            for (name, value) in pairs {
                sent.insert(*name, *value);
            }
            let values = ArgumentValues::read(&args, &sent).unwrap();
            template.messages(&values, usize::MAX).unwrap()[0]
                .content()
                .as_text()
                .unwrap()
                .to_owned()
        };
        assert_eq!(
            render(&[("topic", "owls"), ("focus", "eyes")]),
            "Write about owls.\nFocus on eyes.\nBe brief."
        );
        assert_eq!(render(&[("topic", "owls")]), "Write about owls.\nBe brief.");
        // A blank value is no value.
        assert_eq!(
            render(&[("topic", "owls"), ("focus", " ")]),
            "Write about owls.\nBe brief."
        );
        // An argument whose choices are `true` and `false` is a flag.
        let flagged = [
            DynamicArgument::new("brief")
                .default("false")
                .choices(["true", "false"]),
            DynamicArgument::new("x").optional(),
        ];
        let template = RuntimeTemplate::parse(
            "a{#brief} briefly{/brief}\n--- assistant\n{#x}{x}{/x}",
            &flagged,
        )
        .unwrap();
        for (sent, text, count) in [("TRUE", "a briefly", 2), ("false", "a", 2)] {
            let mut arguments = Arguments::default();
            arguments.insert("brief", sent);
            arguments.insert("x", "ok");
            let values = ArgumentValues::read(&flagged, &arguments).unwrap();
            let messages = template.messages(&values, usize::MAX).unwrap();
            assert_eq!(messages.len(), count);
            assert_eq!(messages[0].content().as_text(), Some(text));
        }
        // A message whose sections are all hidden is left out.
        let values = ArgumentValues::read(&flagged, &Arguments::default()).unwrap();
        assert_eq!(template.messages(&values, usize::MAX).unwrap().len(), 1);
        let required = RuntimeTemplate::parse("a\n{#topic}x{/topic}", &args).unwrap_err();
        assert_eq!(required.line, 2);
        assert!(
            required.message.contains("required"),
            "{}",
            required.message
        );
    }
}
