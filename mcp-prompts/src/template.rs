//! Rendering `#[prompt(template = ...)]` prompts. The macro parses and
//! checks the template at compile time; what reaches the runtime is a list
//! of messages, each a list of literal pieces and argument names.

use crate::content::Role;
use crate::descriptor::Input;
use crate::error::Error;
use crate::message::Message;

/// A parsed template: one or more messages.
#[doc(hidden)]
#[derive(Debug)]
pub struct Template {
    pub messages: &'static [TemplateMessage],
}

/// One message of a template.
#[doc(hidden)]
#[derive(Debug)]
pub struct TemplateMessage {
    pub role: Role,
    pub parts: &'static [Part],
}

/// A literal piece of text, or the value of an argument: the template
/// syntax's own, borrowing what the macro compiled in.
#[doc(hidden)]
pub type Part = mcp_prompts_template::Part<&'static str>;

impl Template {
    /// The messages with every placeholder replaced by the argument's value
    /// as sent (or its default), in its canonical spelling. An optional
    /// argument that was not sent renders as nothing; a section shows as
    /// [`is_set`] says, and a message that renders empty is left out. A
    /// result past the server's limit on one is refused before it is
    /// spent (-32602).
    pub fn render(&self, input: &Input<'_>) -> Result<Vec<Message>, Error> {
        let messages = self.messages.iter().map(|m| (m.role, m.parts));
        render_each(messages, input)
    }
}

/// The messages of `messages`, a template parsed at run time (a
/// `#[prompt(template = ...)]`'s in another language), rendered for
/// `input` as [`Template::render`] renders the macro's.
#[cfg(feature = "fluent")]
pub(crate) fn render_parsed(
    messages: &[mcp_prompts_template::Message],
    input: &Input<'_>,
) -> Result<Vec<Message>, Error> {
    let messages = messages
        .iter()
        .map(|m| (Role::of_template(m.role), m.parts.as_slice()));
    render_each(messages, input)
}

/// Each message (its role and parts) rendered for `input`, within the
/// server's limit on a result; a message left with no text (its sections
/// hidden) is left out.
fn render_each<'m, S: AsRef<str> + 'm>(
    messages: impl ExactSizeIterator<Item = (Role, &'m [mcp_prompts_template::Part<S>])>,
    input: &Input<'_>,
) -> Result<Vec<Message>, Error> {
    let max_bytes = input.request().max_result_bytes();
    let mut left = max_bytes;
    let mut rendered = Vec::with_capacity(messages.len());
    for (role, parts) in messages {
        let text = mcp_prompts_template::render(
            parts,
            |name| value(input, name),
            |name| is_set(input, name),
            left,
        )
        .ok_or_else(|| Error::result_too_large(max_bytes))?;
        left -= text.len();
        if !text.is_empty() {
            rendered.push(Message::new(role, text));
        }
    }
    Ok(rendered)
}

fn value<'a>(input: &'a Input<'_>, name: &str) -> &'a str {
    let Some(arg) = input.prompt().argument(name) else {
        return "";
    };
    input
        .arguments()
        .get(name)
        .or(arg.default())
        .map_or("", |value| arg.canonical(value))
}

/// Whether a section on argument `name` counts it as set: it has a value
/// (sent or its default) that is not blank, and for a `bool`, `true`.
fn is_set(input: &Input<'_>, name: &str) -> bool {
    let value = value(input, name);
    let is_bool = input
        .prompt()
        .argument(name)
        .is_some_and(|arg| arg.choices() == ["true", "false"]);
    let unset = value.trim().is_empty() || (is_bool && value == "false");
    !unset
}
