//! Parsing: the extras' keys as written, into `IconAttr` and `MetaEntry`.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprUnary, Lit, LitBool, LitStr, Token, UnOp};

use super::{IconAttr, IconSource, MetaEntry, MetaLit};
use crate::nested::{lit_str, lit_str_list};

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
        let value = meta_lit(&input.parse()?)?;
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

/// The literal a `_meta` value is, or why it is none.
fn meta_lit(value: &Expr) -> syn::Result<MetaLit> {
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
    Ok(match lit {
        Lit::Str(s) if !negative => MetaLit::Text(s.clone()),
        Lit::Bool(b) if !negative => MetaLit::Bool(b.clone()),
        Lit::Int(i) => {
            let value: i64 = i
                .base10_parse()
                .map_err(|_| syn::Error::new(i.span(), "a `_meta` integer must fit in an i64"))?;
            MetaLit::Integer(if negative { -value } else { value })
        }
        Lit::Float(f) => {
            let value: f64 = f.base10_parse()?;
            if !value.is_finite() {
                return Err(syn::Error::new(f.span(), "a `_meta` number must be finite"));
            }
            MetaLit::Number(if negative { -value } else { value })
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
