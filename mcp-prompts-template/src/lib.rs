//! Implementation detail of the [`mcp-prompts`](https://docs.rs/mcp-prompts) crate; use
//! that crate instead: this API may change in any release, only that crate's is kept stable.
//!
//! The syntax of mcp-prompts templates, shared by the `#[prompt]` macro
//! (which checks templates when the crate compiles) and the runtime (which
//! checks templates defined while serving, as they are added).
//!
//! A template is text with `{argument}` placeholders; `{{` and `}}` are
//! literal braces. `{#argument}` .. `{/argument}` is a section, shown only
//! when the argument has a value (for a `bool`, when it is `true`);
//! `{^argument}` .. `{/argument}` shows only when it has none. A section
//! tag alone on its line takes the line with it. A template is one user
//! message unless a line `--- user` or `--- assistant` starts a new message
//! with that role; a section stays within its message. Blank lines at the
//! edges of each message are dropped, so markers can stand on their own.
//!
//! [`rules`] holds the other rules both sides check: `_meta` keys, tags,
//! icons; [`skill`] those of Agent Skills.

pub mod rules;
pub mod skill;

/// Who speaks a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The user.
    User,
    /// The assistant.
    Assistant,
}

/// A piece of a message: literal text, an argument's value, or a
/// section's start or end. Parsed templates own their text; the ones a
/// macro compiled borrow it (`Part<&'static str>`).
#[derive(Debug, PartialEq, Eq)]
pub enum Part<S = String> {
    /// Literal text, braces unescaped.
    Text(S),
    /// The value of the argument of this name.
    Arg(S),
    /// The start of a section: what follows up to its [`End`](Part::End)
    /// is shown only if whether argument `name` is set equals `when_set`
    /// (`{#name}`: `true`; `{^name}`: `false`).
    Section {
        /// The argument the section depends on.
        name: S,
        /// Shown when the argument is set (`{#..}`), or when it is not (`{^..}`).
        when_set: bool,
    },
    /// The end of the innermost open section (`{/name}`).
    End,
}

/// The text of a message of `parts`: each placeholder replaced by
/// `value(name)`, each section kept or dropped by `is_set(name)`; `None`
/// once the text would pass `max_bytes`, which it never takes more memory
/// than (a template repeating a long value cannot grow past it).
///
/// ```
/// use mcp_prompts_template::{parse, render};
///
/// let messages = parse("{who}, {who}!").unwrap();
/// let parts = &messages[0].parts;
/// assert_eq!(render(parts, |_| "Ann", |_| true, 100).as_deref(), Some("Ann, Ann!"));
/// assert_eq!(render(parts, |_| "Ann", |_| true, 8), None);
/// ```
pub fn render<'v, S: AsRef<str>>(
    parts: &[Part<S>],
    mut value: impl FnMut(&str) -> &'v str,
    mut is_set: impl FnMut(&str) -> bool,
    max_bytes: usize,
) -> Option<String> {
    let mut text = String::new();
    // How many sections deep the parts being skipped are; 0 when shown.
    let mut hidden = 0usize;
    for part in parts {
        let piece = match part {
            Part::Section { .. } if hidden > 0 => {
                hidden += 1;
                continue;
            }
            Part::End if hidden > 0 => {
                hidden -= 1;
                continue;
            }
            _ if hidden > 0 => continue,
            Part::Text(piece) => piece.as_ref(),
            Part::Arg(name) => value(name.as_ref()),
            Part::Section { name, when_set } => {
                if is_set(name.as_ref()) != *when_set {
                    hidden = 1;
                }
                continue;
            }
            Part::End => continue,
        };
        if text.len() + piece.len() > max_bytes {
            return None;
        }
        text.push_str(piece);
    }
    // What a section leaves at the message's edges (its line breaks, or a
    // whole hidden section) goes, as blank edges go when parsing.
    if parts
        .iter()
        .any(|part| matches!(part, Part::Section { .. }))
    {
        let kept = trim_blank_lines(&text);
        if kept.len() != text.len() {
            return Some(kept.to_owned());
        }
    }
    Some(text)
}

/// One message of a template.
#[derive(Debug, PartialEq, Eq)]
pub struct Message {
    /// Who speaks it.
    pub role: Role,
    /// Its text and placeholders, in order.
    pub parts: Vec<Part>,
}

/// Every argument name the template uses, in a placeholder or as a
/// section's condition, once each, in order of first use.
pub fn placeholders(messages: &[Message]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for message in messages {
        for part in &message.parts {
            if let Part::Arg(name) | Part::Section { name, .. } = part {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// Every argument name a section depends on, once each, in order of first
/// use.
pub fn sections(messages: &[Message]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for message in messages {
        for part in &message.parts {
            if let Part::Section { name, .. } = part {
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
    parse_checked(text, &|_: &str| true)
}

/// The arguments a template is checked against.
pub trait Names {
    /// Whether `name` is an argument.
    fn knows(&self, name: &str) -> bool;

    /// Whether argument `name` may be left unset, so that a section on it
    /// means something.
    fn may_be_unset(&self, name: &str) -> bool {
        let _ = name;
        true
    }
}

impl<F: Fn(&str) -> bool> Names for F {
    fn knows(&self, name: &str) -> bool {
        self(name)
    }
}

/// Parses a template whose placeholders and sections must all use `known`
/// names, sections only over arguments that may be unset: anything else
/// is an error on its line.
pub fn parse_checked(text: &str, known: &dyn Names) -> Result<Vec<Message>, ParseError> {
    let mut messages = Vec::new();
    let mut role = Role::User;
    let mut body = String::new();
    let mut body_line = 1;
    let mut explicit = false;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        match marker(line) {
            Some(next) => {
                push_message(&mut messages, role, &body, body_line, explicit, known)?;
                body.clear();
                role = next;
                body_line = index + 2;
                explicit = true;
            }
            None => body.push_str(line),
        }
    }
    push_message(&mut messages, role, &body, body_line, explicit, known)?;
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
fn push_message(
    messages: &mut Vec<Message>,
    role: Role,
    body: &str,
    line: usize,
    explicit: bool,
    known: &dyn Names,
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

fn parts(text: &str, first_line: usize, known: &dyn Names) -> Result<Vec<Part>, ParseError> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    // The sections open at this point: name and line of each.
    let mut open: Vec<(&str, usize)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    // Tags come in order, so each line is counted once, from the last.
    let mut counted = (0, first_line);
    let mut line_at = |offset: usize| {
        counted.1 += text[counted.0..offset].matches('\n').count();
        counted.0 = offset;
        counted.1
    };
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
                let line = line_at(offset);
                let start = offset + 1;
                let Some(len) = text[start..].find('}') else {
                    return Err(ParseError {
                        line,
                        message: "unclosed `{`; write `{{` for a literal brace".into(),
                    });
                };
                let inner = &text[start..start + len];
                let end = start + len + 1;
                let tag = Tag::of(inner);
                let error = |message: String| ParseError { line, message };
                if !is_placeholder_name(tag.name()) {
                    return Err(error(format!(
                        "`{{{inner}}}` is not a placeholder: write `{{argument_name}}`, `{{#argument_name}}`..`{{/argument_name}}` for a section, or `{{{{` for a literal brace"
                    )));
                }
                if !known.knows(tag.name()) {
                    return Err(error(match tag {
                        Tag::Arg(name) => format!("placeholder `{{{name}}}` names no argument"),
                        _ => format!("section `{{{inner}}}` names no argument"),
                    }));
                }
                if let Tag::Open(name, _) = tag {
                    if !known.may_be_unset(name) {
                        return Err(error(format!(
                            "section `{{{inner}}}` depends on `{name}`, which is required and so always set: make the argument optional or give it a default"
                        )));
                    }
                }
                // Advances past the tag, and past its line if the tag
                // stands alone on it.
                let mut resume = end;
                if !matches!(tag, Tag::Arg(_)) {
                    if let Some(line_end) = standalone(text, offset, end) {
                        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
                        let indent = offset - line_start;
                        literal.truncate(literal.len().saturating_sub(indent));
                        resume = line_end;
                    }
                }
                while chars.peek().is_some_and(|&(o, _)| o < resume) {
                    chars.next();
                }
                if !literal.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut literal)));
                }
                push_tag(&mut parts, &mut open, tag, line)?;
            }
            c => literal.push(c),
        }
    }
    if let Some((name, line)) = open.pop() {
        return Err(ParseError {
            line,
            message: format!(
                "section `{name}` is never closed: end it with `{{/{name}}}` before the message ends"
            ),
        });
    }
    if !literal.is_empty() {
        parts.push(Part::Text(literal));
    }
    Ok(parts)
}

/// Adds `tag`, on `line`, to `parts`, keeping `open` (the sections open
/// here) in step.
fn push_tag<'a>(
    parts: &mut Vec<Part>,
    open: &mut Vec<(&'a str, usize)>,
    tag: Tag<'a>,
    line: usize,
) -> Result<(), ParseError> {
    match tag {
        Tag::Arg(name) => parts.push(Part::Arg(name.to_owned())),
        Tag::Open(name, when_set) => {
            open.push((name, line));
            parts.push(Part::Section {
                name: name.to_owned(),
                when_set,
            });
        }
        Tag::Close(name) => {
            let message = match open.pop() {
                Some((opened, _)) if opened == name => {
                    parts.push(Part::End);
                    return Ok(());
                }
                Some((opened, at)) => format!(
                    "`{{/{name}}}` closes no open section: the section opened on line {at} ends with `{{/{opened}}}`"
                ),
                None => format!("`{{/{name}}}` closes no open section"),
            };
            return Err(ParseError { line, message });
        }
    }
    Ok(())
}

/// What a `{..}` holds.
#[derive(Clone, Copy)]
enum Tag<'a> {
    /// `{name}`.
    Arg(&'a str),
    /// `{#name}` (shown when set) or `{^name}` (shown when not).
    Open(&'a str, bool),
    /// `{/name}`.
    Close(&'a str),
}

impl<'a> Tag<'a> {
    fn of(inner: &'a str) -> Self {
        if let Some(name) = inner.strip_prefix('#') {
            Self::Open(name, true)
        } else if let Some(name) = inner.strip_prefix('^') {
            Self::Open(name, false)
        } else if let Some(name) = inner.strip_prefix('/') {
            Self::Close(name)
        } else {
            Self::Arg(inner)
        }
    }

    fn name(self) -> &'a str {
        match self {
            Self::Arg(name) | Self::Open(name, _) | Self::Close(name) => name,
        }
    }
}

/// Where the line of the tag at `start..end` ends (past its line break),
/// if nothing but blanks shares the line with the tag.
fn standalone(text: &str, start: usize, end: usize) -> Option<usize> {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let rest = &text[end..];
    let line_end = rest.find('\n').map_or(text.len(), |i| end + i + 1);
    let blank = |s: &str| {
        s.chars()
            .all(|c| c == ' ' || c == '\t' || c == '\r' || c == '\n')
    };
    (blank(&text[line_start..start]) && blank(&text[end..line_end])).then_some(line_end)
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
        let set = |name: &str| name == "who";
        let rendered = render(&messages[0].parts, value, set, usize::MAX);
        assert_eq!(rendered.as_deref(), Some("Hi Ann, {ok}: "));
        let compiled: [Part<&str>; 2] = [Part::Text("Hi "), Part::Arg("who")];
        assert_eq!(render(&compiled, value, set, 6).as_deref(), Some("Hi Ann"));
        assert_eq!(render(&compiled, value, set, 5), None);
    }

    fn render_with(template: &str, set: &[(&str, &str)]) -> String {
        let messages = parse(template).unwrap();
        let value = |name: &str| set.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| *v);
        render(
            &messages[0].parts,
            value,
            |name| set.iter().any(|(n, _)| *n == name),
            usize::MAX,
        )
        .unwrap()
    }

    #[test]
    fn sections_show_by_whether_their_argument_is_set() {
        let template = "Review this.\n{#focus}\nFocus on {focus}.\n{/focus}\n{^focus}\nLook at everything.\n{/focus}\nThanks.";
        assert_eq!(
            render_with(template, &[("focus", "speed")]),
            "Review this.\nFocus on speed.\nThanks."
        );
        assert_eq!(
            render_with(template, &[]),
            "Review this.\nLook at everything.\nThanks."
        );
        // Inline sections keep the text around them; nested ones hide
        // with their parent.
        let inline = "Hi{#who} {who}{#mood}, {mood}{/mood}{/who}!";
        assert_eq!(render_with(inline, &[("who", "Ann")]), "Hi Ann!");
        assert_eq!(render_with(inline, &[("mood", "sad")]), "Hi!");
        assert_eq!(
            render_with(inline, &[("who", "Ann"), ("mood", "sad")]),
            "Hi Ann, sad!"
        );
        // An indented standalone tag takes its indentation and line break.
        assert_eq!(
            render_with("a\n  {#x}\n  b\n  {/x}\nc", &[("x", "1")]),
            "a\n  b\nc"
        );
        let messages = parse("{#x}a{/x}").unwrap();
        assert_eq!(sections(&messages), ["x"]);
        assert_eq!(placeholders(&messages), ["x"]);
    }

    #[test]
    fn sections_are_checked_like_placeholders() {
        let known = |name: &str| name == "x" || name == "y";
        let err = |text: &str| parse_checked(text, &known).unwrap_err();
        assert_eq!(err("ok\n{#z}a{/z}").line, 2);
        assert_eq!(
            err("ok\n{#z}a{/z}").message,
            "section `{#z}` names no argument"
        );
        let unclosed = err("a\n{#x}\nb");
        assert_eq!(unclosed.line, 2);
        assert!(unclosed.message.contains("`{/x}`"), "{}", unclosed.message);
        let crossed = err("{#x}{#y}a{/x}{/y}");
        assert!(
            crossed.message.contains("ends with `{/y}`"),
            "{}",
            crossed.message
        );
        assert!(err("a{/x}").message.contains("closes no open section"));
        // A section does not run on into the next message.
        let split = err("{#x}a\n--- assistant\nb{/x}");
        assert_eq!(split.line, 1);
        assert!(split.message.contains("never closed"), "{}", split.message);
        assert!(err("{#}").message.contains("is not a placeholder"));
    }
}
