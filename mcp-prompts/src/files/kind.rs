//! Which syntax a prompt file is in, decided by its name and its first
//! line, never guessed from its body:
//!
//! - `name.prompt.md`: a VS Code prompt file (`${input:..}` arguments);
//! - `name.md` starting with a `+++` line: ours, TOML front matter and the
//!   `{argument}` template syntax;
//! - any other `name.md` (YAML front matter between `---` lines, or none):
//!   a Claude Code command (`$ARGUMENTS`, `$1`..`$9`);
//! - `name.prompt`: dotprompt (Picoschema arguments, Handlebars);
//!   `_name.prompt` is a partial, included by others and never served.

/// The kinds of prompt file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// `+++` TOML front matter, `{argument}` placeholders.
    Toml,
    /// A Claude Code command: optional YAML front matter, `$ARGUMENTS`.
    Command,
    /// A VS Code prompt file: optional YAML front matter, `${input:name}`.
    VsCode,
    /// dotprompt: optional YAML front matter, a Handlebars template.
    Dotprompt,
    /// A dotprompt partial (`_name.prompt`), never served itself.
    Partial,
}

const VS_CODE_SUFFIX: &str = ".prompt.md";
const DOTPROMPT_SUFFIX: &str = ".prompt";

impl FileKind {
    /// The kind of the file `file_name` holding `text`.
    pub(crate) fn of(file_name: &str, text: &str) -> Self {
        if has_suffix(file_name, VS_CODE_SUFFIX) {
            return Self::VsCode;
        }
        if has_suffix(file_name, DOTPROMPT_SUFFIX) {
            let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
            return if base.starts_with('_') {
                Self::Partial
            } else {
                Self::Dotprompt
            };
        }
        // A `+++` line mistyped (`+++toml`, after a blank line) is still
        // ours, and its front matter's problem is reported.
        let first = without_bom(text)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty());
        if first.is_some_and(|line| line.starts_with("+++")) {
            Self::Toml
        } else {
            Self::Command
        }
    }
}

/// `text` without the byte-order mark some editors write first.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

pub(crate) use mcp_prompts_template::rules::fenced;

/// The prompt a file is named for: its path in the directory without
/// `.prompt.md`, `.md` or `.prompt`, folders joined by dots (`standup.prompt.md` and
/// `standup.md` serve `standup`, `git/commit.md` serves `git.commit`).
pub(crate) fn prompt_name(path: &str) -> String {
    let stem = [VS_CODE_SUFFIX, ".md", DOTPROMPT_SUFFIX]
        .iter()
        .find(|suffix| has_suffix(path, suffix))
        .map_or(path, |suffix| &path[..path.len() - suffix.len()]);
    stem.replace(['/', '\\'], ".")
}

/// Whether `name` ends with `suffix`, ASCII case aside.
pub(crate) fn has_suffix(name: &str, suffix: &str) -> bool {
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
        assert_eq!(FileKind::of("a.md", "\n+++toml\nx"), FileKind::Toml);
        assert_eq!(FileKind::of("a.md", "Review $ARGUMENTS"), FileKind::Command);
        assert_eq!(FileKind::of("a.prompt.md", "+++\n+++\nx"), FileKind::VsCode);
        assert_eq!(FileKind::of("a.PROMPT.MD", "x"), FileKind::VsCode);
        assert_eq!(prompt_name("standup.prompt.md"), "standup");
        assert_eq!(prompt_name("standup.md"), "standup");
        assert_eq!(prompt_name("Two.MD"), "Two");
        assert_eq!(prompt_name("git/commit.md"), "git.commit");
        assert_eq!(prompt_name("git/review.prompt.md"), "git.review");
        assert_eq!(FileKind::of("a.prompt", "---\n---\nx"), FileKind::Dotprompt);
        assert_eq!(FileKind::of("sub/_card.prompt", "x"), FileKind::Partial);
        assert_eq!(prompt_name("git/summary.prompt"), "git.summary");
    }
}
