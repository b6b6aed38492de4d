//! What a prompt declares besides its arguments and template: icons
//! (`icon`, `icon_file`, `icon(..)`), `_meta` entries (`meta(..)`), `tags`
//! and `as_tool`. Parsed with the other keys, checked and loaded (an icon
//! file embedded as a `data:` URI) with the other rules, and emitted as one
//! registration apart from the definition, which only the prompts that
//! declare any of them pay for.

use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use mcp_prompts_template::rules;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprUnary, Lit, LitBool, LitStr, Token, UnOp};

use crate::errors::Errors;
use crate::nested::{lit_str, lit_str_list};

/// One icon as written.
pub struct IconAttr {
    pub source: IconSource,
    pub sizes: Vec<LitStr>,
    pub theme: Option<LitStr>,
}

/// Where an icon's image is.
pub enum IconSource {
    Url(LitStr),
    /// A file relative to the crate's root, embedded.
    File(LitStr),
}

/// One `"key" = literal` of `meta(..)`.
pub struct MetaEntry {
    pub key: LitStr,
    pub value: Expr,
}

/// `icon = "https://..."`.
pub fn icon_url(meta: &ParseNestedMeta<'_>) -> syn::Result<IconAttr> {
    Ok(IconAttr::of(IconSource::Url(lit_str(meta, "icon")?)))
}

/// `icon_file = "assets/x.svg"`.
pub fn icon_file(meta: &ParseNestedMeta<'_>) -> syn::Result<IconAttr> {
    Ok(IconAttr::of(IconSource::File(lit_str(meta, "icon_file")?)))
}

/// `icon(url = "..." | file = "...", sizes = ["48x48"], theme = "dark")`.
pub fn icon_list(meta: &ParseNestedMeta<'_>) -> syn::Result<IconAttr> {
    let mut source = None;
    let mut sizes = None;
    let mut theme = None;
    meta.parse_nested_meta(|inner| {
        let duplicate = |key: &str| inner.error(format!("duplicate `{key}` in `icon(...)`"));
        if inner.path.is_ident("url") || inner.path.is_ident("file") {
            let is_url = inner.path.is_ident("url");
            let value = lit_str(&inner, if is_url { "url" } else { "file" })?;
            if source.is_some() {
                return Err(inner.error("an icon has one `url` or one `file`"));
            }
            source = Some(if is_url {
                IconSource::Url(value)
            } else {
                IconSource::File(value)
            });
        } else if inner.path.is_ident("sizes") {
            let value = lit_str_list(&inner, "sizes")?;
            if sizes.replace(value).is_some() {
                return Err(duplicate("sizes"));
            }
        } else if inner.path.is_ident("theme") {
            let value = lit_str(&inner, "theme")?;
            if theme.replace(value).is_some() {
                return Err(duplicate("theme"));
            }
        } else {
            crate::nested::unknown_key(
                &inner,
                "unknown `icon(...)` argument `{}`; expected `url`, `file`, `sizes` or `theme`",
            )?;
        }
        Ok(())
    })?;
    let source = source
        .ok_or_else(|| meta.error("an icon needs `url = \"https://...\"` or `file = \"path\"`"))?;
    Ok(IconAttr {
        source,
        sizes: sizes.unwrap_or_default(),
        theme,
    })
}

/// `meta("com.example/owner" = "team-x", "com.example/rank" = 3)`.
pub fn meta_entries(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<MetaEntry>> {
    let content;
    syn::parenthesized!(content in meta.input);
    match Punctuated::<MetaEntry, Token![,]>::parse_terminated(&content) {
        Ok(entries) => Ok(entries.into_iter().collect()),
        Err(err) => {
            // The rest is skipped, so that the error is this one and not
            // syn's "unexpected token" for what is left.
            content.parse::<TokenStream>()?;
            Err(err)
        }
    }
}

impl syn::parse::Parse for MetaEntry {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let key: LitStr = input.parse().map_err(|err| {
            syn::Error::new(
                err.span(),
                "expected a `_meta` key as a string literal, such as `\"com.example/owner\" = \"team-x\"`",
            )
        })?;
        input.parse::<Token![=]>()?;
        let value = input.parse()?;
        meta_value(&value)?;
        Ok(Self { key, value })
    }
}

/// `as_tool = false`.
pub fn as_tool(meta: &ParseNestedMeta<'_>) -> syn::Result<LitBool> {
    match crate::nested::value(meta)? {
        Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        }) => Ok(b),
        other => Err(syn::Error::new(
            other.span(),
            "expected `true` or `false` for `as_tool`",
        )),
    }
}

impl IconAttr {
    fn of(source: IconSource) -> Self {
        Self {
            source,
            sizes: Vec::new(),
            theme: None,
        }
    }
}

/// An icon, checked, its file read: ready to emit.
pub struct LoadedIcon {
    src: String,
    mime_type: Option<&'static str>,
    sizes: Vec<String>,
    theme: Option<&'static str>,
    /// The file to depend on, for an embedded icon.
    file: Option<PathBuf>,
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

/// The `MetaValue` a literal makes, or why it makes none.
fn meta_value(value: &Expr) -> syn::Result<TokenStream> {
    let private = crate::paths::private();
    let (negative, lit) = match value {
        Expr::Lit(ExprLit { lit, .. }) => (false, lit),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(ExprLit { lit, .. }) => (true, lit),
            _ => return Err(not_a_value(value.span())),
        },
        _ => return Err(not_a_value(value.span())),
    };
    let sign = if negative { quote!(-) } else { quote!() };
    Ok(match lit {
        Lit::Str(s) if !negative => quote!(#private::MetaValue::Text(#s)),
        Lit::Bool(b) if !negative => quote!(#private::MetaValue::Bool(#b)),
        Lit::Int(i) => {
            let value: i64 = i
                .base10_parse()
                .map_err(|_| syn::Error::new(i.span(), "a `_meta` integer must fit in an i64"))?;
            let value = proc_macro2::Literal::i64_unsuffixed(value);
            quote!(#private::MetaValue::Integer(#sign #value))
        }
        Lit::Float(f) => {
            let value: f64 = f.base10_parse()?;
            if !value.is_finite() {
                return Err(syn::Error::new(f.span(), "a `_meta` number must be finite"));
            }
            let value = proc_macro2::Literal::f64_unsuffixed(value);
            quote!(#private::MetaValue::Number(#sign #value))
        }
        _ => return Err(not_a_value(value.span())),
    })
}

fn not_a_value(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        "expected a string, number or boolean literal for a `_meta` value",
    )
}

/// The registration of the prompt's extras, when it declares any.
pub fn registration(
    ident: &syn::Ident,
    icons: &[LoadedIcon],
    meta: &[MetaEntry],
    tags: &[LitStr],
    as_tool: Option<&LitBool>,
) -> Option<TokenStream> {
    if icons.is_empty() && meta.is_empty() && tags.is_empty() && as_tool.is_none() {
        return None;
    }
    let private = crate::paths::private();
    let icons = icons.iter().map(|icon| {
        let src = &icon.src;
        let mime = match icon.mime_type {
            Some(mime) => quote!(::core::option::Option::Some(#mime)),
            None => quote!(::core::option::Option::None),
        };
        let sizes = &icon.sizes;
        let theme = match icon.theme {
            Some(theme) => {
                let theme = syn::Ident::new(theme, Span::call_site());
                quote!(::core::option::Option::Some(#private::IconTheme::#theme))
            }
            None => quote!(::core::option::Option::None),
        };
        // An edit of the file rebuilds the crate.
        let depend = icon.file.as_ref().map(|file| {
            let file = file.to_string_lossy();
            quote!(
                const _: &[u8] = ::core::include_bytes!(#file);
            )
        });
        let icon = quote!(#private::Icon::__static(
            #src,
            #mime,
            &[#(::std::borrow::Cow::Borrowed(#sizes)),*],
            #theme,
        ));
        match depend {
            Some(depend) => quote!({ #depend #icon }),
            None => icon,
        }
    });
    let meta = meta.iter().map(|entry| {
        let key = &entry.key;
        // Checked when parsed.
        let value = meta_value(&entry.value).unwrap_or_default();
        quote!((#key, #value))
    });
    let as_tool = as_tool.is_none_or(|b| b.value);
    Some(quote! {
        #private::inventory::submit! {
            #private::Extended(#ident::PROMPT, &#private::PromptExtras {
                icons: &[#(#icons),*],
                meta: &[#(#meta),*],
                tags: &[#(#tags),*],
                as_tool: #as_tool,
            })
        }
    })
}
