//! Icons: a URL or an embedded image clients may show beside a prompt or
//! the server (2025-11-25 on).

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use mcp_prompts_template::rules;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// An icon clients may show beside a prompt or the server: an `https://`
/// URL or a `data:` URI, with its MIME type, sizes and theme when known.
/// Sent only to clients of revision 2025-11-25 and later.
///
/// ```
/// use mcp_prompts::{Icon, IconTheme};
///
/// let logo = Icon::new("https://example.com/logo.png").sizes(["48x48"]);
/// let dark = Icon::embedded("image/svg+xml", b"<svg/>").theme(IconTheme::Dark);
/// assert!(dark.src().starts_with("data:image/svg+xml;base64,"));
/// # let _ = logo;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Icon {
    src: Cow<'static, str>,
    mime_type: Option<Cow<'static, str>>,
    sizes: Cow<'static, [Cow<'static, str>]>,
    theme: Option<IconTheme>,
}

/// The background an icon is drawn for.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IconTheme {
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

impl Icon {
    /// An icon at `src`: an `https://` URL or a `data:` URI, checked when
    /// the prompt or server holding it is built.
    pub fn new(src: impl Into<Cow<'static, str>>) -> Self {
        Self {
            src: src.into(),
            mime_type: None,
            sizes: Cow::Borrowed(&[]),
            theme: None,
        }
    }

    /// An image embedded as a `data:` URI of its bytes.
    pub fn embedded(mime_type: &str, bytes: &[u8]) -> Self {
        let src = format!("data:{mime_type};base64,{}", BASE64.encode(bytes));
        Self::new(src).mime_type(mime_type.to_owned())
    }

    /// What `#[prompt(icon...)]` emits.
    #[doc(hidden)]
    pub const fn __static(
        src: &'static str,
        mime_type: Option<&'static str>,
        sizes: &'static [Cow<'static, str>],
        theme: Option<IconTheme>,
    ) -> Self {
        Self {
            src: Cow::Borrowed(src),
            mime_type: match mime_type {
                Some(mime) => Some(Cow::Borrowed(mime)),
                None => None,
            },
            sizes: Cow::Borrowed(sizes),
            theme,
        }
    }

    /// Its MIME type, such as `image/png`.
    pub fn mime_type(mut self, mime_type: impl Into<Cow<'static, str>>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The sizes it suits: `WxH` in pixels (`48x48`), or `any` for a
    /// scalable image.
    pub fn sizes<I: IntoIterator<Item = S>, S: Into<Cow<'static, str>>>(
        mut self,
        sizes: I,
    ) -> Self {
        self.sizes = Cow::Owned(sizes.into_iter().map(Into::into).collect());
        self
    }

    /// The background it is drawn for.
    pub fn theme(mut self, theme: IconTheme) -> Self {
        self.theme = Some(theme);
        self
    }

    /// The URL or `data:` URI.
    pub fn src(&self) -> &str {
        &self.src
    }

    /// Its MIME type, sizes and theme: what our writer writes beside its
    /// `src`, and the rmcp adapter converts.
    pub(crate) fn details(&self) -> (Option<&str>, &[Cow<'static, str>], Option<IconTheme>) {
        (self.mime_type.as_deref(), &self.sizes, self.theme)
    }

    /// What is wrong with it, if anything.
    pub(crate) fn problem(&self) -> Option<String> {
        let sizes = self.sizes.iter().map(|size| rules::check_icon_size(size));
        std::iter::once(rules::check_icon_src(&self.src))
            .chain(sizes)
            .find_map(Result::err)
    }

    /// Whether it is a URL (not an embedded image).
    pub(crate) fn is_url(&self) -> bool {
        !rules::is_data_uri(&self.src)
    }
}

impl Serialize for Icon {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        let (mime_type, sizes, theme) = self.details();
        map.serialize_entry("src", &self.src)?;
        if let Some(mime_type) = mime_type {
            map.serialize_entry("mimeType", mime_type)?;
        }
        if !sizes.is_empty() {
            map.serialize_entry("sizes", sizes)?;
        }
        if let Some(theme) = theme {
            let theme = match theme {
                IconTheme::Light => "light",
                IconTheme::Dark => "dark",
            };
            map.serialize_entry("theme", theme)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icons_serialize_as_the_spec_spells_them() {
        let icon = Icon::new("https://example.com/a.png")
            .mime_type("image/png")
            .sizes(["48x48", "any"])
            .theme(IconTheme::Dark);
        assert_eq!(
            serde_json::to_value(&icon).unwrap(),
            serde_json::json!({
                "src": "https://example.com/a.png",
                "mimeType": "image/png",
                "sizes": ["48x48", "any"],
                "theme": "dark",
            })
        );
        assert_eq!(icon.problem(), None);
        assert!(Icon::new("ftp://x/a.png").problem().is_some());
        assert!(
            Icon::new("https://x/a.png")
                .sizes(["big"])
                .problem()
                .is_some()
        );
    }

    #[test]
    fn an_embedded_icon_decodes_to_its_bytes() {
        let icon = Icon::embedded("image/png", b"\x89PNG");
        let data = icon.src().strip_prefix("data:image/png;base64,").unwrap();
        assert_eq!(BASE64.decode(data).unwrap(), b"\x89PNG");
        assert!(!icon.is_url());
    }
}
