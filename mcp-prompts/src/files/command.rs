//! Claude Code commands: `$ARGUMENTS` is one optional argument named
//! `arguments` (described by `argument-hint`), `$1` to `$9` positional
//! arguments named from `argument-hint`'s tokens (`[name]` optional,
//! `<name>` required) or `arg1`.. where it names none. Nothing else in the
//! body is substituted.

use super::body::Segments;
use crate::dynamic::DynamicArgument;
use crate::protocol::is_valid_name;

/// The argument `$ARGUMENTS` stands for.
const ALL_ARGUMENTS: &str = "arguments";

/// A command read: its body as pieces, the arguments it takes, and the
/// names `argument-hint` gives positions the body never uses.
pub(crate) struct Command {
    pub(super) segments: Segments,
    pub(super) arguments: Vec<DynamicArgument>,
    pub(super) unused: Vec<String>,
}

/// A command's body as pieces, and the arguments it takes.
pub(crate) fn read(body: &str, hint: Option<&str>) -> Command {
    let hinted = hint.map(hint_tokens).unwrap_or_default();
    let name_of = |position: usize| match hinted.get(position - 1) {
        Some((name, _)) => name.clone(),
        None => format!("arg{position}"),
    };
    let mut segments = Segments::default();
    let mut all = false;
    let mut positions = [false; 9];
    let mut rest = body;
    while let Some(at) = rest.find('$') {
        segments.text(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            segments.arg(ALL_ARGUMENTS);
            all = true;
            rest = tail;
        } else if let Some(digit @ b'1'..=b'9') = after.bytes().next() {
            let position = usize::from(digit - b'0');
            segments.arg(&name_of(position));
            positions[position - 1] = true;
            rest = &after[1..];
        } else {
            segments.text("$");
            rest = after;
        }
    }
    segments.text(rest);
    let mut arguments = Vec::new();
    if all {
        let mut argument = DynamicArgument::new(ALL_ARGUMENTS).optional();
        if let Some(hint) = hint {
            argument = argument.description(hint);
        }
        arguments.push(argument);
    }
    for (index, _) in positions.iter().enumerate().filter(|(_, used)| **used) {
        let required = hinted.get(index).is_some_and(|(_, required)| *required);
        let argument = DynamicArgument::new(name_of(index + 1));
        arguments.push(if required {
            argument
        } else {
            argument.optional()
        });
    }
    // With `$ARGUMENTS` the hint describes that one text; without it, each
    // token names a position, which the body must use.
    let unused = if all {
        Vec::new()
    } else {
        let named = hinted.iter().enumerate();
        let unused = named.filter(|(index, _)| !positions.get(*index).copied().unwrap_or(false));
        unused.map(|(_, (name, _))| name.clone()).collect()
    };
    Command {
        segments,
        arguments,
        unused,
    }
}

/// The names `argument-hint` gives the positions, in order, each required
/// (`<name>`) or not (`[name]`). A token that is not a valid argument name,
/// or one named before, leaves its position unnamed: `argN`.
fn hint_tokens(hint: &str) -> Vec<(String, bool)> {
    let mut tokens: Vec<(String, bool)> = Vec::new();
    let mut rest = hint;
    while let Some(open) = rest.find(['[', '<']) {
        let (close, required) = if rest[open..].starts_with('<') {
            ('>', true)
        } else {
            (']', false)
        };
        let Some(end) = rest[open + 1..].find(close) else {
            break;
        };
        let name = rest[open + 1..open + 1 + end].trim();
        let position = tokens.len() + 1;
        // `argN` is a position's own name, whichever position it is.
        let positional = name
            .strip_prefix("arg")
            .is_some_and(|n| n.parse::<u8>().is_ok());
        let taken = tokens.iter().any(|(n, _)| n == name) || name == ALL_ARGUMENTS || positional;
        let name = if is_valid_name(name) && !taken {
            name.to_owned()
        } else {
            format!("arg{position}")
        };
        tokens.push((name, required));
        rest = &rest[open + 1 + end + 1..];
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::super::body::{Segment, render};
    use super::*;
    use crate::dynamic::ArgumentValues;
    use crate::protocol::Arguments;

    fn values(arguments: &[DynamicArgument], sent: &[(&str, &str)]) -> ArgumentValues {
        let mut args = Arguments::default();
        for (name, value) in sent {
            args.insert(*name, *value);
        }
        ArgumentValues::read(arguments, &args).unwrap()
    }

    #[test]
    fn arguments_and_positions_are_substituted() {
        let Command {
            segments,
            arguments,
            ..
        } = read("Fix issue #$ARGUMENTS now. $ cost $5", None);
        let names: Vec<&str> = arguments
            .iter()
            .map(crate::dynamic::DynamicArgument::get_name)
            .collect();
        assert_eq!(names, ["arguments", "arg5"]);
        assert!(arguments.iter().all(|a| !a.is_required()));
        let text = render(&segments.0, &values(&arguments, &[("arguments", "123")]));
        assert_eq!(text, "Fix issue #123 now. $ cost ");
        assert_eq!(segments.0[0], Segment::Text("Fix issue #".into()));
    }

    #[test]
    fn argument_hint_names_the_positions() {
        let hint = "<pr-number> [priority] [pr-number] [arg1]";
        let Command {
            segments,
            arguments,
            unused,
        } = read("PR $1 at $2, $3$4", Some(hint));
        assert!(unused.is_empty());
        let named: Vec<(&str, bool)> = arguments
            .iter()
            .map(|a| (a.get_name(), a.is_required()))
            .collect();
        // A repeated name, or one that is a position's own, names nothing.
        let expected = [
            ("pr-number", true),
            ("priority", false),
            ("arg3", false),
            ("arg4", false),
        ];
        assert_eq!(named, expected);
        let text = render(
            &segments.0,
            &values(&arguments, &[("pr-number", "7"), ("priority", "high")]),
        );
        assert_eq!(text, "PR 7 at high, ");
        let all = read("Do $ARGUMENTS", Some("[message]"));
        assert_eq!(all.arguments[0].get_description(), Some("[message]"));
        assert!(all.unused.is_empty());
        assert_eq!(read("PR $1", Some("<pr> [priority]")).unused, ["priority"]);
    }
}
