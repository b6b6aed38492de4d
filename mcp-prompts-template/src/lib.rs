//! Implementation detail of the [`mcp-prompts`](https://docs.rs/mcp-prompts) crate; use
//! that crate instead: this API may change in any release, only that crate's is kept stable.
//!
//! The syntax of mcp-prompts templates, shared by the `#[prompt]` macro
//! (which checks templates when the crate compiles) and the runtime (which
//! checks templates defined while serving, as they are added).
//!
//! A template is text with `{argument}` placeholders; `{{` and `}}` are
//! literal braces. It is one user message unless a line `--- user` or
//! `--- assistant` starts a new message with that role. Blank lines at the
//! edges of each message are dropped, so markers can stand on their own.
//!
//! [`rules`] holds the other rules both sides check: `_meta` keys, tags,
//! icons.

pub mod rules;

/// Who speaks a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The user.
    User,
    /// The assistant.
    Assistant,
}

/// A piece of a message: literal text, or an argument's value. Parsed
/// templates own their text; the ones a macro compiled borrow it
/// (`Part<&'static str>`).
#[derive(Debug, PartialEq, Eq)]
pub enum Part<S = String> {
    /// Literal text, braces unescaped.
    Text(S),
    /// The value of the argument of this name.
    Arg(S),
}

/// The text of a message of `parts`, each placeholder replaced by
/// `value(name)`.
pub fn render<'v, S: AsRef<str>>(
    parts: &[Part<S>],
    mut value: impl FnMut(&str) -> &'v str,
) -> String {
    let mut text = String::new();
    for part in parts {
        match part {
            Part::Text(piece) => text.push_str(piece.as_ref()),
            Part::Arg(name) => text.push_str(value(name.as_ref())),
        }
    }
    text
}

/// One message of a template.
#[derive(Debug, PartialEq, Eq)]
pub struct Message {
    /// Who speaks it.
    pub role: Role,
    /// Its text and placeholders, in order.
    pub parts: Vec<Part>,
}

/// Every placeholder's name, once each, in order of first use.
pub fn placeholders(messages: &[Message]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for message in messages {
        for part in &message.parts {
            if let Part::Arg(name) = part {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// Why a template cannot be parsed, and where.
#[derive(Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong, one sentence.
    pub message: String,
}

/// Parses a template into its messages.
pub fn parse(text: &str) -> Result<Vec<Message>, ParseError> {
    parse_checked(text, &|_| true)
}

/// Parses a template whose placeholders must all be `known` names: an
/// unknown one is an error on its line.
pub fn parse_checked(text: &str, known: &dyn Fn(&str) -> bool) -> Result<Vec<Message>, ParseError> {
    let mut messages = Vec::new();
    let mut role = Role::User;
    let mut body = String::new();
    let mut body_line = 1;
    let mut explicit = false;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        match marker(line) {
            Some(next) => {
                finish(&mut messages, role, &body, body_line, explicit, known)?;
                body.clear();
                role = next;
                body_line = index + 2;
                explicit = true;
            }
            None => body.push_str(line),
        }
    }
    finish(&mut messages, role, &body, body_line, explicit, known)?;
    if messages.is_empty() {
        return Err(ParseError {
            line: 1,
            message: "the template is empty".into(),
        });
    }
    Ok(messages)
}

/// `--- user` or `--- assistant`, alone on a line (indentation allowed).
fn marker(line: &str) -> Option<Role> {
    let rest = line.trim().strip_prefix("---")?.trim();
    match rest {
        "user" => Some(Role::User),
        "assistant" => Some(Role::Assistant),
        _ => None,
    }
}

/// Adds the message collected so far. Text before the first marker may be
/// empty (the template starts with a marker); a marked message may not.
fn finish(
    messages: &mut Vec<Message>,
    role: Role,
    body: &str,
    line: usize,
    explicit: bool,
    known: &dyn Fn(&str) -> bool,
) -> Result<(), ParseError> {
    let marker_line = line.saturating_sub(1).max(1);
    let text = trim_blank_lines(body);
    let leading = body.find(text).unwrap_or(0);
    let line = line + body[..leading].matches('\n').count();
    if text.trim().is_empty() {
        return if explicit {
            Err(ParseError {
                line: marker_line,
                message: "a `---` role marker is followed by an empty message".into(),
            })
        } else {
            Ok(())
        };
    }
    messages.push(Message {
        role,
        parts: parts(text, line, known)?,
    });
    Ok(())
}

/// The text without blank (empty or whitespace-only) lines at either end;
/// indentation of the first kept line stays.
fn trim_blank_lines(body: &str) -> &str {
    let mut text = body;
    while let Some((first, rest)) = text.split_once('\n') {
        if !first.trim().is_empty() {
            break;
        }
        text = rest;
    }
    while let Some((rest, last)) = text.rsplit_once('\n') {
        if !last.trim().is_empty() {
            break;
        }
        text = rest;
    }
    if text.trim().is_empty() {
        ""
    } else {
        text.trim_end_matches('\r')
    }
}

fn parts(
    text: &str,
    first_line: usize,
    known: &dyn Fn(&str) -> bool,
) -> Result<Vec<Part>, ParseError> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut chars = text.char_indices().peekable();
    let line_at = |offset: usize| first_line + text[..offset].matches('\n').count();
    while let Some((offset, c)) = chars.next() {
        match c {
            '{' if chars.peek().is_some_and(|&(_, next)| next == '{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek().is_some_and(|&(_, next)| next == '}') => {
                chars.next();
                literal.push('}');
            }
            '}' => {
                return Err(ParseError {
                    line: line_at(offset),
                    message: "unmatched `}`; write `}}` for a literal brace".into(),
                });
            }
            '{' => {
                let start = offset + 1;
                let Some(len) = text[start..].find('}') else {
                    return Err(ParseError {
                        line: line_at(offset),
                        message: "unclosed `{`; write `{{` for a literal brace".into(),
                    });
                };
                let name = &text[start..start + len];
                if !is_placeholder_name(name) {
                    return Err(ParseError {
                        line: line_at(offset),
                        message: format!(
                            "`{{{name}}}` is not a placeholder: write `{{argument_name}}`, or `{{{{` for a literal brace"
                        ),
                    });
                }
                if !known(name) {
                    return Err(ParseError {
                        line: line_at(offset),
                        message: format!("placeholder `{{{name}}}` names no argument"),
                    });
                }
                while chars.peek().is_some_and(|&(o, _)| o <= start + len) {
                    chars.next();
                }
                if !literal.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut literal)));
                }
                parts.push(Part::Arg(name.to_owned()));
            }
            c => literal.push(c),
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Text(literal));
    }
    Ok(parts)
}

fn is_placeholder_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Part {
        Part::Text(s.into())
    }

    fn arg(s: &str) -> Part {
        Part::Arg(s.into())
    }

    #[test]
    fn one_user_message_by_default() {
        let messages = parse("Hello {name}, {{literal}}!").unwrap();
        assert_eq!(
            messages,
            [Message {
                role: Role::User,
                parts: vec![text("Hello "), arg("name"), text(", {literal}!")],
            }]
        );
    }

    #[test]
    fn markers_start_messages_and_edges_are_trimmed() {
        let source =
            "Write for {project}.\n--- assistant\nI will.\n\n--- user\nChanges:\n{changes}\n";
        let messages = parse(source).unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[1].role, Role::Assistant);
        assert_eq!(messages[1].parts, [text("I will.")]);
        assert_eq!(messages[2].parts, [text("Changes:\n"), arg("changes")]);
        let indented = parse("\n    Hi {x}\n    --- assistant\n    Ok\n    ").unwrap();
        assert_eq!(indented.len(), 2);
        assert_eq!(indented[0].parts, [text("    Hi "), arg("x")]);
        assert_eq!(indented[1].parts, [text("    Ok")]);
        let leading = parse("--- assistant\nHi").unwrap();
        assert_eq!(leading.len(), 1);
        assert_eq!(leading[0].role, Role::Assistant);
    }

    #[test]
    fn unknown_placeholders_are_errors_on_their_line() {
        let known = |name: &str| name == "who";
        let err = parse_checked("{{whom}} {who}\n--- assistant\nand {whom}", &known).unwrap_err();
        assert_eq!(err.line, 3);
        assert_eq!(err.message, "placeholder `{whom}` names no argument");
        assert!(parse_checked("{{whom}} {who}", &known).is_ok());
    }

    #[test]
    fn errors_say_which_line() {
        let err = parse("ok\nbad } here").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(parse("{unclosed").is_err());
        assert!(parse("{}").is_err());
        assert!(parse("{two words}").is_err());
        assert_eq!(
            parse("a\n--- user\n\n--- assistant\nb").unwrap_err().line,
            2
        );
        assert!(parse("").is_err());
        assert!(parse("--- user").is_err());
    }

    #[test]
    fn renders_owned_and_borrowed_parts_alike() {
        let messages = parse("Hi {who}, {{ok}}: {mood}").unwrap();
        let value = |name: &str| if name == "who" { "Ann" } else { "" };
        assert_eq!(render(&messages[0].parts, value), "Hi Ann, {ok}: ");
        let compiled: [Part<&str>; 2] = [Part::Text("Hi "), Part::Arg("who")];
        assert_eq!(render(&compiled, value), "Hi Ann");
    }
}
