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

/// The prompt a file is named for: its path in the directory without
/// `.prompt.md` or `.md`, folders joined by dots (`standup.prompt.md` and
/// `standup.md` serve `standup`, `git/commit.md` serves `git.commit`).
pub(crate) fn prompt_name(path: &str) -> String {
    let stem = [VS_CODE_SUFFIX, ".md"]
        .iter()
        .find(|suffix| has_suffix(path, suffix))
        .map_or(path, |suffix| &path[..path.len() - suffix.len()]);
    stem.replace(['/', '\\'], ".")
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
        assert_eq!(prompt_name("git/commit.md"), "git.commit");
        assert_eq!(prompt_name("git/review.prompt.md"), "git.review");
    }
}
