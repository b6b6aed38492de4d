//! Prompt files in other tools' conventions, served as they are: Claude
//! Code commands and VS Code prompt files, both with optional YAML front
//! matter, their bodies one user message.

use std::sync::Arc;

use super::body::{Segments, render};
use super::front_matter::{Broken, IconFile, invalid_name, read_icon};
use super::kind::FileKind;
use super::{command, vscode, yaml};
use crate::dynamic::{DynamicArgument, DynamicPrompt, DynamicPromptBuilder};
use crate::protocol::is_valid_name;

/// A `{{name}}` in a command is served as written (a command takes
/// `$ARGUMENTS`), which its author may not expect: each is a warning, with
/// its line.
fn named_placeholders(body: &str, body_line: usize) -> Vec<Broken> {
    let mut warnings = Vec::new();
    for (index, line) in body.lines().enumerate() {
        let mut names = line
            .split("{{")
            .skip(1)
            .filter_map(|rest| rest.split_once("}}"));
        if let Some((name, _)) = names.find(|(name, _)| is_valid_name(name.trim())) {
            let name = name.trim();
            warnings.push(Broken::at(
                body_line + index,
                format!(
                    "`{{{{{name}}}}}` is served as written: a Claude Code command takes `$ARGUMENTS` or `$1`..`$9`; for named arguments write a `.prompt` or `+++` TOML prompt file"
                ),
            ));
        }
    }
    warnings
}

/// The longest description taken from a command's first line, in
/// characters: a line a host shows in a menu.
const MAX_FIRST_LINE_CHARS: usize = 160;

/// A command's first line of text, as its description: Markdown heading
/// marks and emphasis at its ends stripped, cut at a word before
/// [`MAX_FIRST_LINE_CHARS`] with `…`.
fn first_line(body: &str) -> Option<String> {
    let line = body.lines().map(str::trim).find(|line| !line.is_empty())?;
    let line = line
        .trim_start_matches('#')
        .trim()
        .trim_matches(['*', '_'])
        .trim();
    if line.is_empty() {
        return None;
    }
    if line.chars().count() <= MAX_FIRST_LINE_CHARS {
        return Some(line.to_owned());
    }
    let cut: String = line.chars().take(MAX_FIRST_LINE_CHARS - 1).collect();
    let cut = match cut.rfind(char::is_whitespace) {
        Some(at) if at > 0 => cut[..at].trim_end(),
        _ => cut.as_str(),
    };
    Some(format!("{cut}…"))
}

/// The prompt of a Claude Code command or a VS Code prompt file named
/// `name` (unless its front matter says otherwise).
pub(crate) fn parse(
    kind: FileKind,
    text: &str,
    matter: Result<yaml::YamlMatter, Broken>,
    name: &str,
    origin: &str,
    icon: Option<&IconFile>,
) -> Result<(DynamicPrompt, Vec<Broken>), Broken> {
    let (_, body, body_line) = yaml::split(text)?;
    // A file just made (`touch x.md`) is not a prompt yet.
    if body.trim().is_empty() {
        return Err(Broken::at(body_line, "the prompt file has no text"));
    }
    let mut matter = matter?;
    for (key, line) in [
        ("input", matter.input.as_ref().map(|(_, line)| *line)),
        ("unused", matter.unused.as_ref().map(|(_, line)| *line)),
    ] {
        if let Some(line) = line {
            return Err(Broken::at(
                line,
                format!(
                    "`{key}` is a dotprompt key: a `.prompt` file declares its arguments in `input.schema`"
                ),
            ));
        }
    }
    let mut warnings = Vec::new();
    let (segments, arguments): (Segments, Vec<DynamicArgument>) = match kind {
        FileKind::VsCode => vscode::read(body, body_line)?,
        _ => {
            let hint = matter.argument_hint.as_ref();
            let command = command::read(body, hint.map(|(hint, _)| hint.as_str()));
            if let (Some(unused), Some((_, line))) = (command.unused.first(), hint) {
                return Err(Broken::at(
                    *line,
                    format!("`argument-hint` names `{unused}`, whose `$N` the command never uses"),
                ));
            }
            warnings = named_placeholders(body, body_line);
            // As Claude Code does: no description, the body's first line.
            if matter.description.is_none() {
                matter.description = first_line(body);
            }
            (command.segments, command.arguments)
        }
    };
    let segments = Arc::new(segments.0);
    let mut builder = with_matter(name, origin, &mut matter, icon)?
        .handler(move |values, _| render(&segments, values));
    for argument in arguments {
        builder = builder.argument(argument);
    }
    Ok((build_prompt(builder)?, warnings))
}

/// A prompt builder named `name` (unless the front matter says otherwise)
/// with what the YAML front matter says of it: title, description, icon,
/// scopes, tags, whether the prompt tools offer it.
pub(crate) fn with_matter(
    name: &str,
    origin: &str,
    matter: &mut yaml::YamlMatter,
    icon: Option<&IconFile>,
) -> Result<DynamicPromptBuilder, Broken> {
    let name = match matter.name.take() {
        Some((name, line)) if !is_valid_name(&name) => {
            return Err(Broken::at(line, invalid_name("prompt name", &name)));
        }
        Some((name, _)) => name,
        None => name.to_owned(),
    };
    let mut builder = DynamicPrompt::builder(name)
        .origin(origin)
        .scopes(std::mem::take(&mut matter.scopes))
        .tags(std::mem::take(&mut matter.tags));
    if let Some(title) = matter.title.take() {
        builder = builder.title(title);
    }
    if let Some(description) = matter.description.take() {
        builder = builder.description(description);
    }
    if let Some((named, line)) = matter.icon.take() {
        builder = builder.icon(read_icon(named, icon).map_err(|m| Broken::at(line, m))?);
    }
    if let Some(as_tool) = matter.as_tool {
        builder = builder.as_tool(as_tool);
    }
    Ok(builder)
}

/// The prompt `builder` makes, or why it cannot.
pub(crate) fn build_prompt(builder: DynamicPromptBuilder) -> Result<DynamicPrompt, Broken> {
    builder.build().map_err(|err| Broken {
        line: None,
        message: err.problems().join("; "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file's prompt, its front matter read here.
    fn parse(
        kind: FileKind,
        text: &str,
        name: &str,
        origin: &str,
        icon: Option<&IconFile>,
    ) -> Result<(DynamicPrompt, Vec<Broken>), Broken> {
        super::parse(
            kind,
            text,
            yaml::read_matter(text, origin),
            name,
            origin,
            icon,
        )
    }

    #[test]
    fn a_claude_command_and_a_vs_code_prompt_file_are_served_as_they_are() {
        let command = "---\ndescription: Fix an issue\nargument-hint: <issue> [priority]\nallowed-tools: Bash(gh:*)\n---\nFix issue $1 with priority $2.\n";
        let (prompt, warnings) = parse(
            FileKind::Command,
            command,
            "fix-issue",
            "fix-issue.md",
            None,
        )
        .unwrap();
        assert!(warnings.is_empty());
        assert_eq!(prompt.name(), "fix-issue");
        assert_eq!(prompt.description(), Some("Fix an issue"));
        let names: Vec<&str> = prompt
            .arguments()
            .iter()
            .map(crate::dynamic::DynamicArgument::get_name)
            .collect();
        assert_eq!(names, ["issue", "priority"]);
        let bare = parse(
            FileKind::Command,
            "Explain $ARGUMENTS",
            "explain",
            "x.md",
            None,
        )
        .unwrap()
        .0;
        assert_eq!(bare.arguments()[0].get_name(), "arguments");
        // No description: the body's first line, as Claude Code shows it.
        assert_eq!(bare.description(), Some("Explain $ARGUMENTS"));
        let headed = parse(
            FileKind::Command,
            "\n## **Review the diff**\n\nLook at $ARGUMENTS.\n",
            "review",
            "review.md",
            None,
        )
        .unwrap()
        .0;
        assert_eq!(headed.description(), Some("Review the diff"));
        let long = format!("{} end", "word ".repeat(40));
        let cut = first_line(&long).unwrap();
        assert!(
            cut.ends_with("word…") && cut.chars().count() <= 160,
            "{cut}"
        );
        let vscode = "---\nname: tests\nmode: agent\n---\nTest ${input:target:What to test}.";
        let (prompt, _) = parse(FileKind::VsCode, vscode, "t", "t.prompt.md", None).unwrap();
        assert_eq!(prompt.name(), "tests");
        assert_eq!(
            prompt.arguments()[0].get_description(),
            Some("What to test")
        );
        let typo = parse(
            FileKind::Command,
            "---\nmodle: x\n---\nx",
            "x",
            "x.md",
            None,
        )
        .unwrap_err();
        assert_eq!(typo.line, Some(2), "{}", typo.message);
        let problem = |text: &str| parse(FileKind::Command, text, "x", "x.md", None).unwrap_err();
        // A hint naming a position the body never uses.
        let unused = problem("---\nargument-hint: <pr> [priority]\n---\nReview $1");
        assert_eq!(unused.line, Some(2), "{}", unused.message);
        assert!(unused.message.contains("`priority`"), "{}", unused.message);
        // A file with no text; YAML's own line numbers left out.
        let empty = problem("---\ntitle: x\n---\n\n");
        assert_eq!(empty.line, Some(4), "{}", empty.message);
        let yaml = problem("---\ntitle: [x\n---\nx");
        assert!(!yaml.message.contains(" at line "), "{}", yaml.message);
        // dotprompt's keys belong in a `.prompt` file.
        assert_eq!(
            problem("---\ninput:\n  schema: {x: string}\n---\n$1").line,
            Some(2)
        );
        // A `{{name}}` is served as written, and a warning says so.
        let (_, warnings) = parse(
            FileKind::Command,
            "Fix $1\nin {{ file }}",
            "x",
            "x.md",
            None,
        )
        .unwrap();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].line, Some(2));
    }
}
