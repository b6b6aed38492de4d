//! One file of a skill: its bytes as read, their digest, its MIME type.

use std::fmt::Write as _;
use std::sync::Arc;

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
}
