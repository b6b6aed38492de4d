//! Templates given at run time: the same syntax as
//! `#[prompt(template = ...)]`, parsed and checked against the prompt's
//! arguments when the prompt is built, rendered on each call.

use mcp_prompts_template::{ParseError, parse_checked};

use super::DynamicArgument;
use super::argument::ArgumentValues;
use crate::content::Role;
use crate::message::Message;

/// A parsed template whose placeholders all name declared arguments.
#[derive(Debug)]
pub(crate) struct RuntimeTemplate {
    messages: Vec<mcp_prompts_template::Message>,
}

/// Why a template cannot be used, and on which line of its text.
#[derive(Debug)]
pub(crate) struct TemplateError {
    pub(crate) line: usize,
    pub(crate) message: String,
}

impl RuntimeTemplate {
    /// Parses `text`; every placeholder must be one of `arguments`.
    pub(crate) fn parse(text: &str, arguments: &[DynamicArgument]) -> Result<Self, TemplateError> {
        let known = |name: &str| arguments.iter().any(|arg| arg.name == name);
        let messages =
            parse_checked(text, &known).map_err(|ParseError { line, mut message }| {
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
            })?;
        Ok(Self { messages })
    }

    /// The messages, each placeholder replaced by its argument's value (an
    /// optional argument without one renders as nothing).
    pub(crate) fn render(&self, values: &ArgumentValues) -> Vec<Message> {
        self.messages
            .iter()
            .map(|message| {
                let text = mcp_prompts_template::render(&message.parts, |name| {
                    values.get(name).unwrap_or("")
                });
                Message::new(Role::of_template(message.role), text)
            })
            .collect()
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
        let messages = template.render(&values);
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
}
