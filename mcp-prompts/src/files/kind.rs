//! Which syntax a prompt file is in, decided by its name and its first
//! line, never guessed from its body:
//!
//! - `name.prompt.md`: a VS Code prompt file (`${input:..}` arguments);
//! - `name.md` starting with a `+++` line: ours, TOML front matter and the
//!   `{argument}` template syntax;
//! - any other `name.md` (YAML front matter between `---` lines, or none):
//!   a Claude Code command (`$ARGUMENTS`, `$1`..`$9`).

/// The kinds of prompt file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// `+++` TOML front matter, `{argument}` placeholders.
    Toml,
    /// A Claude Code command: optional YAML front matter, `$ARGUMENTS`.
    Command,
    /// A VS Code prompt file: optional YAML front matter, `${input:name}`.
    VsCode,
}

const VS_CODE_SUFFIX: &str = ".prompt.md";

impl FileKind {
    /// The kind of the file `file_name` holding `text`.
    pub(crate) fn of(file_name: &str, text: &str) -> Self {
        if has_suffix(file_name, VS_CODE_SUFFIX) {
            return Self::VsCode;
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        match text.lines().next().map(str::trim) {
            Some("+++") => Self::Toml,
            _ => Self::Command,
        }
    }
}

/// The prompt a file is named for: its name without `.prompt.md` or `.md`
/// (`standup.prompt.md` and `standup.md` both serve `standup`).
pub(crate) fn prompt_name(file_name: &str) -> &str {
    [VS_CODE_SUFFIX, ".md"]
        .iter()
        .find(|suffix| has_suffix(file_name, suffix))
        .map_or(file_name, |suffix| {
            &file_name[..file_name.len() - suffix.len()]
        })
}

/// Whether `name` ends with `suffix`, ASCII case aside.
fn has_suffix(name: &str, suffix: &str) -> bool {
    name.len() >= suffix.len()
        && name.is_char_boundary(name.len() - suffix.len())
        && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_and_first_line_decide() {
        assert_eq!(FileKind::of("a.md", "+++\n+++\nx"), FileKind::Toml);
        assert_eq!(FileKind::of("a.md", "\u{feff}+++\n+++\nx"), FileKind::Toml);
        assert_eq!(FileKind::of("a.md", "---\n---\nx"), FileKind::Command);
        assert_eq!(FileKind::of("a.md", "Review $ARGUMENTS"), FileKind::Command);
        assert_eq!(FileKind::of("a.prompt.md", "+++\n+++\nx"), FileKind::VsCode);
        assert_eq!(FileKind::of("a.PROMPT.MD", "x"), FileKind::VsCode);
        assert_eq!(prompt_name("standup.prompt.md"), "standup");
        assert_eq!(prompt_name("standup.md"), "standup");
        assert_eq!(prompt_name("Two.MD"), "Two");
    }
}
