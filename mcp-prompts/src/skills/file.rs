//! One file of a skill: its bytes as read, their digest, its MIME type.

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};

/// A file's bytes: embedded in the binary, or read or made at run time.
#[derive(Clone)]
enum Held {
    Embedded(&'static [u8]),
    Shared(Arc<[u8]>),
}

/// A file a skill serves, at its path under the skills root.
#[derive(Clone)]
pub(crate) struct SkillFile {
    /// `/`-separated, under the root: `acme/billing/refunds/SKILL.md`.
    path: Box<str>,
    bytes: Held,
    /// `sha256:` and 64 lowercase hex digits, of exactly `bytes`.
    digest: Box<str>,
    mime: Box<str>,
    /// Whether the bytes are UTF-8, and so served as text (else base64).
    text: bool,
    /// What its contents take at most as a JSON string, worked out at the
    /// first read (see [`json_bound`](Self::json_bound)).
    json: OnceLock<usize>,
}

impl SkillFile {
    /// The file at `path` (under the root, `/`-separated) holding `bytes`,
    /// of MIME type `mime`.
    pub(crate) fn new(
        path: impl Into<Box<str>>,
        bytes: Vec<u8>,
        mime: impl Into<Box<str>>,
    ) -> Self {
        let text = std::str::from_utf8(&bytes).is_ok();
        let mut digest = String::with_capacity(7 + 64);
        digest.push_str("sha256:");
        for byte in Sha256::digest(&bytes) {
            let _ = write!(digest, "{byte:02x}");
        }
        Self {
            path: path.into(),
            bytes: Held::Shared(bytes.into()),
            digest: digest.into(),
            mime: mime.into(),
            text,
            json: OnceLock::new(),
        }
    }

    /// A file embedded at compile time, whose digest and kind (text or
    /// not) were worked out then too.
    pub(crate) fn embedded(
        path: impl Into<Box<str>>,
        bytes: &'static [u8],
        digest: &'static str,
        mime: &'static str,
        text: bool,
    ) -> Self {
        Self {
            path: path.into(),
            bytes: Held::Embedded(bytes),
            digest: digest.into(),
            mime: mime.into(),
            text,
            json: OnceLock::new(),
        }
    }

    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Held::Embedded(bytes) => bytes,
            Held::Shared(bytes) => bytes,
        }
    }

    pub(crate) fn digest(&self) -> &str {
        &self.digest
    }

    pub(crate) fn mime(&self) -> &str {
        &self.mime
    }

    /// The UTF-8 text of the file, if it is text.
    pub(crate) fn text(&self) -> Option<&str> {
        if self.text {
            std::str::from_utf8(self.bytes()).ok()
        } else {
            None
        }
    }

    /// Its size in bytes.
    pub(crate) fn size(&self) -> u64 {
        self.bytes().len() as u64
    }

    /// Its last path segment.
    pub(crate) fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or_default()
    }

    /// The most bytes its contents take as a JSON string, quotes included,
    /// as `resources/read` sends them: its text escaped, or its bytes in
    /// base64. Known before the answer is written, so that the server
    /// reserves an answer's bytes before it spends them; counted once, at
    /// the first read, and kept.
    pub(crate) fn json_bound(&self) -> usize {
        *self.json.get_or_init(|| match self.text() {
            Some(text) => json_str_bound(text),
            // Standard base64, padded.
            None => 2 + self.bytes().len().div_ceil(3) * 4,
        })
    }
}

/// The bytes `text` takes as a JSON string as `serde_json` writes it,
/// quotes included: a quote, a backslash and the five control characters
/// with a short escape (`\n`, `\t`, ...) take two, any other control
/// character six (`\u001f`), any other byte itself.
pub(crate) fn json_str_bound(text: &str) -> usize {
    let extra: usize = text
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\t' | b'\r' | 0x08 | 0x0c => 1,
            0..0x20 => 5,
            _ => 0,
        })
        .sum();
    2 + text.len() + extra
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_of_the_bytes_as_the_specification_writes_it() {
        // The example SKILL.md of the specification, and the digest its
        // example manifest lists.
        let skill_md = b"---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\n# PDF processing\n\nChoose the matching template from `templates/`.\n";
        let file = SkillFile::new(
            "pdf-processing/SKILL.md",
            skill_md.to_vec(),
            "text/markdown",
        );
        assert_eq!(
            file.digest(),
            "sha256:99b737495721155ece826d57521e2d66141ebdc1344a400487481ea2642ab19e"
        );
        assert_eq!((file.size(), file.name()), (151, "SKILL.md"));
        assert!(file.text().is_some());
        assert!(
            SkillFile::new("a/b.bin", vec![0xff, 0], "application/octet-stream")
                .text()
                .is_none()
        );
    }

    #[test]
    fn the_json_bound_holds_what_serde_json_writes() {
        let text = "plain \"quoted\" \\ tab\t line\n \u{1} \u{1f} \u{7f} \u{e9}\u{2028}";
        let file = SkillFile::new("a/t.txt", text.as_bytes().to_vec(), "text/plain");
        let written = serde_json::to_string(text).unwrap().len();
        assert_eq!(file.json_bound(), written, "exact, not only a bound");
        // Only control characters take all six bytes.
        let controls = "\u{1}".repeat(100);
        let file = SkillFile::new("a/c.txt", controls.as_bytes().to_vec(), "text/plain");
        assert_eq!(
            file.json_bound(),
            serde_json::to_string(&controls).unwrap().len()
        );
        let binary = SkillFile::new("a/b.bin", vec![0xff; 7], "application/octet-stream");
        assert_eq!(binary.json_bound(), "\"/////////w==\"".len());
    }
}
