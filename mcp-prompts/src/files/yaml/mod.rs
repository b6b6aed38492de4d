//! YAML front matter between `---` lines, as Claude Code commands and VS
//! Code prompt files have it: our keys are read, the keys other tools read
//! are ignored (logged at debug level), and any other key is an error, so
//! a typo is not silently ignored.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use yaml_serde::Value;

mod bounded;

/// The largest YAML front matter read.
pub(crate) use bounded::MAX_BYTES as MAX_FRONT_MATTER_BYTES;

use super::front_matter::Broken;
use super::kind::{fenced, without_bom};

/// What the front matter says.
#[derive(Debug, Default)]
pub(crate) struct YamlMatter {
    /// Another name than the file's, and its line.
    pub(super) name: Option<(String, usize)>,
    pub(super) title: Option<String>,
    pub(super) description: Option<String>,
    /// Claude Code's `argument-hint`, which names its arguments, and its
    /// line.
    pub(super) argument_hint: Option<(String, usize)>,
    pub(super) scopes: Vec<String>,
    /// An icon, and the line it is named on.
    pub(super) icon: Option<(String, usize)>,
    pub(super) tags: Vec<String>,
    pub(super) as_tool: Option<bool>,
    /// dotprompt's `input` (`schema`, `default`), and its line.
    pub(super) input: Option<(Value, usize)>,
    /// Declared arguments the template does not use on purpose, and the
    /// line they are listed on.
    pub(super) unused: Option<(Vec<String>, usize)>,
}

/// The keys other tools read (VS Code, Claude Code, Agent Skills,
/// dotprompt), which a prompt file may carry and we leave alone.
const FOREIGN: [&str; 12] = [
    "mode",
    "model",
    "tools",
    "agent",
    "allowed-tools",
    "disable-model-invocation",
    "config",
    "output",
    "variant",
    "version",
    "ext",
    "metadata",
];

/// A file's YAML front matter (and the line it starts on), its body, and
/// the body's first line; a file without front matter is all body.
pub(crate) fn split(text: &str) -> Result<(Option<&str>, &str, usize), Broken> {
    let text = without_bom(text);
    match fenced(text, "---") {
        Some(Ok((front, body_start, body_line))) => {
            Ok((Some(front), &text[body_start..], body_line))
        }
        Some(Err(())) => Err(Broken::at(1, "the front matter has no closing `---` line")),
        None => Ok((None, text, 1)),
    }
}

/// Reads the front matter (which starts on the file's line 2), within
/// the bounds of [`bounded`].
pub(crate) fn parse(front: &str, origin: &str) -> Result<YamlMatter, Broken> {
    let map = read_bounded(front)?;
    let mut matter = YamlMatter::default();
    for (key, value) in map {
        let line = line_of_key(front, &key);
        let at = |message: String| Broken::at(line, message);
        match key.as_str() {
            "name" => matter.name = Some((read(&key, value).map_err(at)?, line)),
            "title" => matter.title = Some(read(&key, value).map_err(at)?),
            "description" => matter.description = Some(read(&key, value).map_err(at)?),
            "argument-hint" => {
                matter.argument_hint = Some((read(&key, value).map_err(at)?, line));
            }
            "scopes" => matter.scopes = read(&key, value).map_err(at)?,
            "icon" => matter.icon = Some((read(&key, value).map_err(at)?, line)),
            "tags" => matter.tags = read(&key, value).map_err(at)?,
            "as_tool" => matter.as_tool = Some(read(&key, value).map_err(at)?),
            "input" => matter.input = Some((value, line)),
            "unused" => matter.unused = Some((read(&key, value).map_err(at)?, line)),
            foreign if FOREIGN.contains(&foreign) => {
                tracing::debug!(
                    file = %crate::error::Escaped::new(origin),
                    key = foreign,
                    "front matter key of another tool, ignored"
                );
            }
            unknown => {
                return Err(at(format!(
                    "front matter: unknown key `{unknown}`; expected `name`, `title`, `description`, `argument-hint`, `scopes`, `icon`, `tags`, `as_tool`, `input` or `unused` (or another tool's: {})",
                    FOREIGN.join(", ")
                )));
            }
        }
    }
    Ok(matter)
}

/// Reads the YAML front matter of `text`, if it has one (none reads as
/// empty).
pub(crate) fn read_matter(text: &str, origin: &str) -> Result<YamlMatter, Broken> {
    match split(text)? {
        (Some(front), _, _) => parse(front, origin),
        (None, _, _) => Ok(YamlMatter::default()),
    }
}

/// The top-level keys of `front` and their values (another tool's read
/// as null), or what is wrong with it, on its line of the file.
fn read_bounded(front: &str) -> Result<BTreeMap<String, Value>, Broken> {
    read_bounded_with(&quote_argument_hint(front), |key| FOREIGN.contains(&key))
}

/// Every top-level key of `front` and its value, none ignored (an Agent
/// Skill's front matter is served whole, and read as any YAML reader reads
/// it: no Claude Code `argument-hint` quoting), within the same bounds.
pub(crate) fn read_all(front: &str) -> Result<BTreeMap<String, Value>, Broken> {
    read_bounded_with(front, |_| false)
}

fn read_bounded_with(
    front: &str,
    ignored: impl Fn(&str) -> bool,
) -> Result<BTreeMap<String, Value>, Broken> {
    bounded::check_size(front).map_err(|(line, message)| Broken {
        line: line.map(|line| line + 2),
        message,
    })?;
    bounded::read(front, ignored).map_err(|err| {
        // YAML also breaks lines at a lone `\r`, which the file's line
        // count does not: its line is kept within the front matter.
        let last = front.lines().count() + 1;
        // A key given twice is reported where its map starts: the line
        // of its second use says more.
        let line = second_line_of(front, &err.to_string())
            .or_else(|| err.location().map(|at| (at.line() + 1).min(last)))
            .unwrap_or(2);
        // The message's own "at line N" counts from the front matter: the
        // file's line is given instead.
        let message = err.to_string();
        let message = message.split(" at line ").next().unwrap_or_default();
        Broken::at(line, format!("front matter: {message}"))
    })
}

/// The file's line of the second `key:` a duplicate-key error names (the
/// parser reports it without a place).
fn second_line_of(front: &str, message: &str) -> Option<usize> {
    let key = message
        .split('`')
        .nth(1)
        .filter(|_| message.contains("is given twice"))?;
    front
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            line.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .nth(1)
        .map(|(index, _)| index + 2)
}

/// `value` as the type `key` takes, or what is wrong with it.
fn read<T: DeserializeOwned>(key: &str, value: Value) -> Result<T, String> {
    yaml_serde::from_value(value).map_err(|err| format!("front matter: `{key}`: {err}"))
}

/// The file's line of `key` (front matter starts on line 2).
pub(crate) fn line_of_key(front: &str, key: &str) -> usize {
    front
        .lines()
        .position(|line| {
            line.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map_or(2, |index| index + 2)
}

/// Claude Code reads `argument-hint: [message] [priority]` as the text it
/// is, which strict YAML does not (a list, then more): an unquoted value
/// is quoted before the YAML is read.
fn quote_argument_hint(front: &str) -> String {
    let mut quoted = String::with_capacity(front.len());
    for line in front.split_inclusive('\n') {
        // A comment is not the hint's; a quoted or block value is YAML's.
        let value = line
            .strip_prefix("argument-hint:")
            .map(|v| v.split(" #").next().unwrap_or_default().trim());
        match value {
            Some(value) if !value.is_empty() && !value.starts_with(['"', '\'', '|', '>']) => {
                quoted.push_str("argument-hint: '");
                quoted.push_str(&value.replace('\'', "''"));
                quoted.push('\'');
                if line.ends_with('\n') {
                    quoted.push('\n');
                }
            }
            _ => quoted.push_str(line),
        }
    }
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_keys_are_read_and_other_tools_keys_ignored() {
        let text = "---\ndescription: Review a PR\nargument-hint: [pr-number] [priority] # two\nallowed-tools: Bash(git:*)\nmodel: x\ntags: [git]\n---\nReview $1\n";
        let (front, body, line) = split(text).unwrap();
        let matter = parse(front.unwrap(), "r.md").unwrap();
        assert_eq!(matter.description.as_deref(), Some("Review a PR"));
        let hint = matter.argument_hint.as_ref();
        let hint = hint.map(|(hint, line)| (hint.as_str(), *line));
        assert_eq!(hint, Some(("[pr-number] [priority]", 3)));
        assert_eq!(matter.tags, ["git"]);
        assert_eq!((body, line), ("Review $1\n", 8));
        let typo = parse("descripton: x\n", "r.md").unwrap_err();
        assert_eq!(typo.line, Some(2));
        assert!(
            typo.message.contains("unknown key `descripton`"),
            "{}",
            typo.message
        );
        let bad = parse("title: x\ntags: 3\n", "r.md").unwrap_err();
        assert_eq!(bad.line, Some(3), "{}", bad.message);
        assert_eq!(
            split("no front matter").unwrap(),
            (None, "no front matter", 1)
        );
        assert!(split("---\ntitle: x\n").is_err());
        assert_eq!(parse("", "r.md").unwrap().title, None);
        // A lone CR is a line break to YAML, not to the file.
        let cr = parse("title: x\r\r\r\r\r\r: y: z\n", "r.md").unwrap_err();
        assert_eq!(cr.line, Some(2), "{}", cr.message);
    }
}
