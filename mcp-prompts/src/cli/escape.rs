//! What the command line prints that a file, a folder or a prompt chose
//! (paths, problems' messages, a prompt's text), escaped by the rule the
//! log keeps ([`must_escape`]): control characters (newlines, ESC, the C1
//! range, DEL), line separators and the invisible format characters
//! (bidirectional controls among them). So a file name cannot write a
//! line of its own (a GitHub Actions `::error` or `::add-mask::`) and a
//! prompt's text cannot drive the terminal (an OSC 52 clipboard write, a
//! screen clear) or read differently from what it is.

use std::fmt::Write as _;

use crate::error::{Escaped, must_escape};

/// `text` for one line of output: every character the rule names shown
/// as a Rust escape (`\n`, `\u{1b}`, `\u{202e}`).
pub(super) fn line(text: &str) -> Escaped<'_> {
    Escaped::new(text)
}

/// A prompt's text as `render` prints it: its control characters (C0, C1,
/// DEL) and bidirectional controls escaped, but for its line breaks and
/// tabs, which are its layout. Unlike [`line`], the other invisible format
/// characters stay: a prompt's text is prose, where zero-width joiners
/// make emoji and Persian words and tag characters make flags. A carriage
/// return stays only before a newline (CRLF text); alone, it would send
/// the cursor back over what the line showed.
pub(super) fn text(prompt: &str) -> String {
    let mut out = String::with_capacity(prompt.len());
    let mut chars = prompt.chars().peekable();
    while let Some(c) = chars.next() {
        let crlf = c == '\r' && chars.peek() == Some(&'\n');
        if c == '\n' || c == '\t' || crlf || !(c.is_control() || is_bidi_control(c)) {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    out
}

/// The characters that reorder how text around them is shown: the Arabic
/// letter mark, the directional marks, embeddings, overrides and isolates.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Serialized JSON with every character the rule names inside its strings
/// written as a JSON escape (`\u202e`, a surrogate pair past U+FFFF): the
/// value read back is the same. `serde_json` escapes C0 controls itself,
/// so a raw one left in `serialized` is layout (pretty printing's
/// newlines) and stays.
pub(super) fn json(serialized: &str) -> String {
    let mut out = String::with_capacity(serialized.len());
    for c in serialized.chars() {
        if c > '\u{1f}' && must_escape(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` as a workflow command's message: escaped as for a person, then
/// encoded as GitHub's runner reads it (`%25`, `%0D`, `%0A`).
pub(super) fn workflow_data(text: &str) -> String {
    line(text)
        .to_string()
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// `text` as a workflow command's property: as data, and `:` and `,`
/// encoded too (`%3A`, `%2C`).
pub(super) fn workflow_property(text: &str) -> String {
    workflow_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name made to forge a workflow command, retitle the terminal and
    /// read backwards.
    const HOSTILE: &str =
        "a\n::error file=x::forged\r\u{1b}]0;owned\u{7}\u{9b}2J\u{7f}\u{202e}dm.\u{2066}md";

    #[test]
    fn a_line_shows_every_control_and_bidi_character_escaped() {
        let shown = line(HOSTILE).to_string();
        assert_eq!(
            shown,
            r"a\n::error file=x::forged\r\u{1b}]0;owned\u{7}\u{9b}2J\u{7f}\u{202e}dm.\u{2066}md"
        );
        assert!(!shown.chars().any(must_escape), "{shown}");
        for bidi in ['\u{61c}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{2069}'] {
            assert_eq!(
                line(&bidi.to_string()).to_string(),
                bidi.escape_default().to_string()
            );
        }
        assert_eq!(line("plain/path ü.md").to_string(), "plain/path ü.md");
    }

    #[test]
    fn a_prompt_s_text_keeps_its_lines_and_tabs_only() {
        let prompt = "Hi\tthere\r\nline two\u{1b}]52;c;aGk=\u{7}\rhidden\u{1b}[2J";
        assert_eq!(
            text(prompt),
            "Hi\tthere\r\nline two\\u{1b}]52;c;aGk=\\u{7}\\rhidden\\u{1b}[2J"
        );
        assert_eq!(text("caf\u{e9} \u{1f980}"), "caf\u{e9} \u{1f980}");
        // Prose keeps its joiners: an emoji sequence, a Persian word with
        // a zero-width non-joiner, a flag of tag characters.
        for prose in [
            "\u{1f469}\u{200d}\u{1f4bb}",
            "\u{645}\u{6cc}\u{200c}\u{62e}\u{648}\u{627}\u{647}\u{645}",
            "\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}",
        ] {
            assert_eq!(text(prose), prose);
        }
        assert_eq!(text("a\u{202e}b\u{9b}"), "a\\u{202e}b\\u{9b}");
    }

    #[test]
    fn json_escapes_what_serde_json_leaves_and_reads_back_the_same() {
        let value = serde_json::json!({ "path": HOSTILE, "tag": "\u{e0041}" });
        let written = json(&format!("{value:#}"));
        assert!(
            !written.chars().any(|c| c != '\n' && must_escape(c)),
            "{written}"
        );
        assert!(
            written.contains(r"\u202e") && written.contains(r"\udb40\udc41"),
            "{written}"
        );
        let read: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert_eq!(read, value);
    }
}
