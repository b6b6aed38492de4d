//! Checking: the extras against the rules the runtime holds too (`_meta`
//! keys, tags, icon sizes, themes and sources), and each icon file read
//! (a compile-time read is a check: a missing or oversized file fails it).

use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use mcp_prompts_template::rules;
use syn::LitStr;

use super::{IconAttr, IconSource, MetaEntry};
use crate::errors::Errors;

/// An icon, checked, its file read: ready to emit.
pub struct LoadedIcon {
    pub(super) src: String,
    pub(super) mime_type: Option<&'static str>,
    pub(super) sizes: Vec<String>,
    pub(super) theme: Option<&'static str>,
    /// The file to depend on, for an embedded icon.
    pub(super) file: Option<PathBuf>,
}

/// Checks every icon, `_meta` entry and tag, and loads the icon files.
pub fn load(
    icons: &[IconAttr],
    meta: &[MetaEntry],
    tags: &[LitStr],
    errors: &mut Errors,
) -> Vec<LoadedIcon> {
    for (i, entry) in meta.iter().enumerate() {
        let key = entry.key.value();
        if let Err(problem) = rules::check_meta_key(&key) {
            errors.push(syn::Error::new(entry.key.span(), problem));
        } else if meta[..i].iter().any(|e| e.key.value() == key) {
            errors.push(syn::Error::new(
                entry.key.span(),
                format!("duplicate `_meta` key `{key}`"),
            ));
        }
    }
    for tag in tags {
        if let Err(problem) = rules::check_tag(&tag.value()) {
            errors.push(syn::Error::new(tag.span(), problem));
        }
    }
    icons
        .iter()
        .filter_map(|icon| load_icon(icon).map_err(|err| errors.push(err)).ok())
        .collect()
}

fn load_icon(icon: &IconAttr) -> syn::Result<LoadedIcon> {
    let mut problems = Errors::default();
    for size in &icon.sizes {
        if let Err(problem) = rules::check_icon_size(&size.value()) {
            problems.push(syn::Error::new(size.span(), problem));
        }
    }
    let theme = match icon.theme.as_ref().map(|t| (t.value(), t.span())) {
        None => None,
        Some((theme, _)) if theme == "light" => Some("Light"),
        Some((theme, _)) if theme == "dark" => Some("Dark"),
        Some((theme, span)) => {
            problems.push(syn::Error::new(
                span,
                format!("unknown icon theme `{theme}`; expected `light` or `dark`"),
            ));
            None
        }
    };
    let loaded = match &icon.source {
        IconSource::Url(url) => rules::check_icon_src(&url.value())
            .map(|()| (url.value(), None, None))
            .map_err(|problem| syn::Error::new(url.span(), problem)),
        IconSource::File(path) => {
            embed(path).map(|(src, mime, file)| (src, Some(mime), Some(file)))
        }
    };
    let loaded = loaded.map_err(|err| problems.push(err));
    problems.into_result()?;
    let Ok((src, mime_type, file)) = loaded else {
        unreachable!("its error was pushed")
    };
    Ok(LoadedIcon {
        src,
        mime_type,
        sizes: icon.sizes.iter().map(LitStr::value).collect(),
        theme,
        file,
    })
}

/// Reads an icon file relative to the crate's root into a `data:` URI.
fn embed(path: &LitStr) -> syn::Result<(String, &'static str, PathBuf)> {
    let span = path.span();
    let relative = path.value();
    let mime = rules::icon_mime_type(&relative).ok_or_else(|| {
        syn::Error::new(
            span,
            format!("icon file `{relative}` must be an .svg, .png, .jpg, .jpeg or .webp image"),
        )
    })?;
    let root = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let full = PathBuf::from(root).join(&relative);
    let bytes = std::fs::read(&full).map_err(|err| {
        syn::Error::new(
            span,
            format!("cannot read icon file `{relative}` (relative to the crate's root, where its Cargo.toml is): {err}"),
        )
    })?;
    if bytes.len() > rules::MAX_ICON_BYTES {
        return Err(syn::Error::new(
            span,
            format!(
                "icon file `{relative}` has {} bytes; an embedded icon may have at most {} (64 KiB): serve a larger one from a URL",
                bytes.len(),
                rules::MAX_ICON_BYTES
            ),
        ));
    }
    let src = format!("data:{mime};base64,{}", BASE64.encode(&bytes));
    Ok((src, mime, full))
}
