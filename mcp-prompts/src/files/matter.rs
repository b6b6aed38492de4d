//! A prompt file's front matter, read once, when the file is read: the
//! icon it names is read beside the file before its prompt is made, and
//! the prompt is made from the same reading.

use super::front_matter::{self, Broken, FrontMatter};
use super::kind::FileKind;
use super::yaml::{self, YamlMatter};

/// What a file's front matter says, or why it cannot be read.
#[derive(Default)]
pub(super) enum Matter {
    /// Ours: TOML between `+++` lines.
    Toml(Result<FrontMatter, Broken>),
    /// The other tools': YAML between `---` lines, or none.
    Yaml(Result<YamlMatter, Broken>),
    /// A partial's: it has none of its own.
    #[default]
    None,
}

impl Matter {
    /// The front matter of a file of `kind` holding `text` (from `origin`,
    /// for messages).
    pub(super) fn read(kind: FileKind, text: &str, origin: &str) -> Self {
        match kind {
            FileKind::Toml => Self::Toml(front_matter::read_matter(text)),
            FileKind::Command | FileKind::VsCode | FileKind::Dotprompt => {
                Self::Yaml(yaml::read_matter(text, origin))
            }
            FileKind::Partial => Self::None,
        }
    }

    /// The icon it names, if any.
    pub(super) fn icon(&self) -> Option<&str> {
        match self {
            Self::Toml(Ok(matter)) => matter.icon(),
            Self::Yaml(Ok(matter)) => matter.icon.as_ref().map(|(icon, _)| icon.as_str()),
            _ => None,
        }
    }

    /// The TOML front matter; read from `text` if this is not it.
    pub(super) fn toml(self, text: &str) -> Result<FrontMatter, Broken> {
        match self {
            Self::Toml(matter) => matter,
            _ => front_matter::read_matter(text),
        }
    }

    /// The YAML front matter; read from `text` if this is not it.
    pub(super) fn yaml(self, text: &str, origin: &str) -> Result<YamlMatter, Broken> {
        match self {
            Self::Yaml(matter) => matter,
            _ => yaml::read_matter(text, origin),
        }
    }
}
