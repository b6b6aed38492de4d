//! The body of a Claude Code command or a VS Code prompt file: text with
//! argument references, one user message, rendered by substitution (the
//! other tools' syntax, not ours: nothing else in it is special).

use crate::dynamic::ArgumentValues;

/// A piece of a body: text as written, or an argument's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Segment {
    /// Text as written.
    Text(String),
    /// The value of the argument of this name.
    Arg(String),
}

/// Pieces of a body, built in order.
#[derive(Debug, Default)]
pub(crate) struct Segments(pub(super) Vec<Segment>);

impl Segments {
    /// Adds text, joined to the text before it.
    pub(crate) fn text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.0.last_mut() {
            Some(Segment::Text(last)) => last.push_str(text),
            _ => self.0.push(Segment::Text(text.to_owned())),
        }
    }

    /// Adds the place of argument `name`'s value.
    pub(crate) fn arg(&mut self, name: &str) {
        self.0.push(Segment::Arg(name.to_owned()));
    }
}

/// The message text: each argument's value in its place (an optional one
/// not sent, nothing), blank lines at the edges dropped.
pub(crate) fn render(segments: &[Segment], values: &ArgumentValues) -> String {
    let mut text = String::new();
    for segment in segments {
        match segment {
            Segment::Text(part) => text.push_str(part),
            Segment::Arg(name) => text.push_str(values.get(name).unwrap_or_default()),
        }
    }
    text.trim_matches(|c| c == '\n' || c == '\r').to_owned()
}
