//! VS Code prompt files (`name.prompt.md`): `${input:name}` and
//! `${input:name:placeholder}` declare a required argument, its
//! placeholder the argument's description (braces in it pair up, as in
//! `/v1/invoices/{id}`). VS Code's other variables
//! (`${selection}`, `${file}`, ...) have no value outside the editor and
//! stay as written.

use super::body::Segments;
use super::front_matter::{Broken, invalid_name};
use crate::dynamic::DynamicArgument;
use crate::protocol::is_valid_name;

const INPUT: &str = "${input:";

/// A prompt file's body as pieces, and the arguments it declares; an
/// input with an invalid name, or whose braces do not pair up, is a
/// problem on its line (`first_line` is the body's).
pub(crate) fn read(
    body: &str,
    first_line: usize,
) -> Result<(Segments, Vec<DynamicArgument>), Broken> {
    let mut segments = Segments::default();
    let mut arguments: Vec<DynamicArgument> = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find(INPUT) {
        segments.text(&rest[..at]);
        let after = &rest[at + INPUT.len()..];
        // Counted only for a problem: a body may hold many inputs.
        let line = || first_line + body[..body.len() - rest.len() + at].matches('\n').count();
        let end = match closing(after) {
            Some(end) => end,
            // Cut at a `}` inside it, the placeholder's rest would be
            // served as the prompt's text, and no one told.
            None if after.contains('}') => {
                return Err(Broken::at(
                    line(),
                    "this `${input:...}` is not closed: the braces in it do not pair up",
                ));
            }
            None => {
                segments.text(&rest[at..]);
                rest = "";
                break;
            }
        };
        let (name, placeholder) = match after[..end].split_once(':') {
            Some((name, placeholder)) => (name.trim(), Some(placeholder.trim())),
            None => (after[..end].trim(), None),
        };
        let placeholder = placeholder.filter(|p| !p.is_empty());
        if !is_valid_name(name) {
            return Err(Broken::at(line(), invalid_name("input name", name)));
        }
        segments.arg(name);
        let known = arguments.iter_mut().find(|a| a.get_name() == name);
        match (known, placeholder) {
            (Some(known), Some(placeholder)) => known.describe_if_undescribed(placeholder),
            (Some(_), _) => {}
            (None, placeholder) => {
                let mut argument = DynamicArgument::new(name);
                if let Some(placeholder) = placeholder {
                    argument = argument.description(placeholder);
                }
                arguments.push(argument);
            }
        }
        rest = &after[end + 1..];
    }
    segments.text(rest);
    Ok((segments, arguments))
}

/// Where the `}` that closes an input is in `after`, the text after its
/// `${input:`: the first one outside the braces its placeholder pairs.
fn closing(after: &str) -> Option<usize> {
    let mut depth = 0_usize;
    for (at, byte) in after.bytes().enumerate() {
        match byte {
            b'{' => depth += 1,
            b'}' if depth == 0 => return Some(at),
            b'}' => depth -= 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::body::render;
    use super::*;
    use crate::dynamic::ArgumentValues;
    use crate::protocol::Arguments;

    #[test]
    fn inputs_are_required_arguments_described_by_their_placeholder() {
        let body = "Write tests for ${input:target:The function to test} in ${file}.\nAgain: ${input:target}.";
        let (segments, arguments) = read(body, 5).unwrap();
        assert_eq!(arguments.len(), 1);
        assert_eq!(arguments[0].get_name(), "target");
        assert!(arguments[0].is_required());
        assert_eq!(arguments[0].get_description(), Some("The function to test"));
        let mut sent = Arguments::default();
        sent.insert("target", "parse");
        let values = ArgumentValues::read(&arguments, &sent).unwrap();
        assert_eq!(
            render(&segments.0, &values),
            "Write tests for parse in ${file}.\nAgain: parse."
        );
        let bad = read("ok\n${input:two words}", 5).unwrap_err();
        assert_eq!(bad.line, Some(6), "{}", bad.message);
    }

    #[test]
    fn a_placeholder_keeps_its_paired_braces_and_unpaired_ones_are_a_problem() {
        let body = "Call ${input:path:The path, as /v1/invoices/{id} or {a{b}}} now.";
        let (segments, arguments) = read(body, 1).unwrap();
        assert_eq!(
            arguments[0].get_description(),
            Some("The path, as /v1/invoices/{id} or {a{b}}")
        );
        let mut sent = Arguments::default();
        sent.insert("path", "/v1/invoices/7");
        let values = ArgumentValues::read(&arguments, &sent).unwrap();
        assert_eq!(render(&segments.0, &values), "Call /v1/invoices/7 now.");
        let bad = read("ok\nGet ${input:path:/v1/{id} now", 5).unwrap_err();
        assert_eq!(bad.line, Some(6), "{}", bad.message);
        assert!(bad.message.contains("do not pair up"), "{}", bad.message);
        // No `}` after it at all: text, as VS Code leaves it.
        let (segments, arguments) = read("Just ${input:open", 1).unwrap();
        assert!(arguments.is_empty());
        assert_eq!(
            render(
                &segments.0,
                &ArgumentValues::read(&[], &Arguments::default()).unwrap()
            ),
            "Just ${input:open"
        );
    }
}
