//! The syntax of `#[prompt(...)]` and `#[arg(...)]`.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Lit, LitStr, UnOp};

use crate::errors::Errors;
use crate::extras::{self, IconAttr, MetaEntry};
use crate::nested::{lit_str, lit_str_list, string_literals, ungrouped, unknown_key, value};

const NAME: &str = "name";
const TITLE: &str = "title";
const DESCRIPTION: &str = "description";
const DEFAULT: &str = "default";
const EXAMPLE: &str = "example";
const RANGE: &str = "range";
const FLATTEN: &str = "flatten";
const COMPLETE: &str = "complete";
const TEMPLATE: &str = "template";
const TEMPLATE_FILE: &str = "template_file";
const UNUSED: &str = "unused";
const SCOPES: &str = "scopes";
const VISIBLE: &str = "visible";
const ICON: &str = "icon";
const ICON_FILE: &str = "icon_file";
const META: &str = "meta";
const TAGS: &str = "tags";
const AS_TOOL: &str = "as_tool";
pub const ARG: &str = "arg";

#[derive(Default)]
pub struct PromptAttrs {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub template: Option<LitStr>,
    pub template_file: Option<LitStr>,
    /// Arguments a template leaves unused on purpose.
    pub unused: Option<Vec<LitStr>>,
    /// The scopes a remote caller must all hold to see the prompt.
    pub scopes: Option<Vec<LitStr>>,
    /// A predicate over the caller that must hold to see the prompt.
    pub visible: Option<syn::Path>,
    /// Every icon, in order (`icon`, `icon_file` and `icon(..)` repeat).
    pub icons: Vec<IconAttr>,
    pub meta: Option<Vec<MetaEntry>>,
    pub tags: Option<Vec<LitStr>>,
    pub as_tool: Option<syn::LitBool>,
}

#[derive(Default)]
pub struct ArgAttrs {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub default: Option<ArgValue>,
    /// A value to show the argument with (test renderings, forms).
    pub example: Option<ArgValue>,
    /// The bounds a number must keep (`range = 1..=10`).
    pub range: Option<RangeAttr>,
    /// Where `flatten` was written, if it was.
    pub flatten: Option<Span>,
    pub complete: Option<CompleteAttr>,
}

/// `complete = some::function` or `complete = ["a", "b"]`.
pub enum CompleteAttr {
    Path(syn::Path),
    List(Vec<LitStr>, Span),
}

impl CompleteAttr {
    pub fn span(&self) -> Span {
        match self {
            Self::Path(path) => path.span(),
            Self::List(_, span) => *span,
        }
    }
}

/// A value written in an `#[arg]` (a default, an example) in the string
/// form a client would send, e.g. `50` or `casual`.
pub struct ArgValue {
    pub text: String,
    pub span: Span,
}

/// Parses `#[prompt(...)]`; every problem is kept, not just the first.
pub fn parse_prompt(args: TokenStream) -> syn::Result<PromptAttrs> {
    let mut attrs = PromptAttrs::default();
    let mut errors = Errors::default();
    let parser = syn::meta::parser(|meta| {
        let result = if meta.path.is_ident(NAME) {
            set_once(&meta, &mut attrs.name, NAME, "prompt", lit_str)
        } else if meta.path.is_ident(TITLE) {
            set_once(&meta, &mut attrs.title, TITLE, "prompt", lit_str)
        } else if meta.path.is_ident(DESCRIPTION) {
            set_once(
                &meta,
                &mut attrs.description,
                DESCRIPTION,
                "prompt",
                lit_str,
            )
        } else if meta.path.is_ident(TEMPLATE) {
            set_once(&meta, &mut attrs.template, TEMPLATE, "prompt", lit_str)
        } else if meta.path.is_ident(TEMPLATE_FILE) {
            set_once(
                &meta,
                &mut attrs.template_file,
                TEMPLATE_FILE,
                "prompt",
                lit_str,
            )
        } else if meta.path.is_ident(UNUSED) {
            set_once(&meta, &mut attrs.unused, UNUSED, "prompt", lit_str_list)
        } else if meta.path.is_ident(SCOPES) {
            set_once(&meta, &mut attrs.scopes, SCOPES, "prompt", lit_str_list)
        } else if meta.path.is_ident(VISIBLE) {
            set_once(&meta, &mut attrs.visible, VISIBLE, "prompt", fn_path)
        } else if meta.path.is_ident(ICON) {
            let icon = if meta.input.peek(syn::token::Paren) {
                extras::icon_list(&meta)
            } else {
                extras::icon_url(&meta)
            };
            icon.map(|icon| attrs.icons.push(icon))
        } else if meta.path.is_ident(ICON_FILE) {
            extras::icon_file(&meta).map(|icon| attrs.icons.push(icon))
        } else if meta.path.is_ident(META) {
            set_once(&meta, &mut attrs.meta, META, "prompt", |m, _| {
                extras::meta_entries(m)
            })
        } else if meta.path.is_ident(TAGS) {
            set_once(&meta, &mut attrs.tags, TAGS, "prompt", lit_str_list)
        } else if meta.path.is_ident(AS_TOOL) {
            set_once(&meta, &mut attrs.as_tool, AS_TOOL, "prompt", |m, _| {
                extras::as_tool(m)
            })
        } else {
            unknown_key(
                &meta,
                "unknown `#[prompt]` argument `{}`; expected `name`, `title`, `description`, `template`, `template_file`, `unused`, `scopes`, `visible`, `icon`, `icon_file`, `meta`, `tags` or `as_tool`",
            )
        };
        errors.push_result(result);
        Ok(())
    });
    parser.parse2(args)?;
    errors.into_result()?;
    Ok(attrs)
}

/// Parses one `#[arg(...)]` into `out`, recording problems in `errors`.
pub fn parse_arg(attr: &Attribute, out: &mut ArgAttrs, errors: &mut Errors) {
    let result = attr.parse_nested_meta(|meta| {
        let result = if meta.path.is_ident(NAME) {
            set_once(&meta, &mut out.name, NAME, "arg", lit_str)
        } else if meta.path.is_ident(TITLE) {
            set_once(&meta, &mut out.title, TITLE, "arg", lit_str)
        } else if meta.path.is_ident(DESCRIPTION) {
            set_once(&meta, &mut out.description, DESCRIPTION, "arg", lit_str)
        } else if meta.path.is_ident(DEFAULT) {
            set_once(&meta, &mut out.default, DEFAULT, "arg", literal_value)
        } else if meta.path.is_ident(EXAMPLE) {
            set_once(&meta, &mut out.example, EXAMPLE, "arg", literal_value)
        } else if meta.path.is_ident(RANGE) {
            set_once(&meta, &mut out.range, RANGE, "arg", range)
        } else if meta.path.is_ident(FLATTEN) {
            set_once(&meta, &mut out.flatten, FLATTEN, "arg", flag)
        } else if meta.path.is_ident(COMPLETE) {
            set_once(&meta, &mut out.complete, COMPLETE, "arg", completer)
        } else {
            unknown_key(
                &meta,
                "unknown `#[arg]` argument `{}`; expected `name`, `title`, `description`, `default`, `example`, `range`, `complete` or `flatten`",
            )
        };
        errors.push_result(result);
        Ok(())
    });
    errors.push_result(result);
}

fn set_once<T>(
    meta: &ParseNestedMeta<'_>,
    slot: &mut Option<T>,
    key: &str,
    attr: &str,
    parse: fn(&ParseNestedMeta<'_>, &str) -> syn::Result<T>,
) -> syn::Result<()> {
    let duplicate = slot.is_some();
    let value = parse(meta, key)?;
    if duplicate {
        return Err(meta.error(format!("duplicate `{key}` in `#[{attr}(...)]`")));
    }
    *slot = Some(value);
    Ok(())
}

/// A key that takes no value, such as `flatten`.
fn flag(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Span> {
    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
        // Reported like an unknown key: the value is skipped first.
        return unknown_key(meta, &format!("`{key}` takes no value")).map(|()| meta.path.span());
    }
    Ok(meta.path.span())
}

/// A completer: a path (a function or a `&'static` list), or a list of
/// string literals.
fn completer(meta: &ParseNestedMeta<'_>, _: &str) -> syn::Result<CompleteAttr> {
    let expr = value(meta)?;
    let error = |span| {
        syn::Error::new(
            span,
            "expected a completer: a function's path, or a list of values such as `[\"a\", \"b\"]`",
        )
    };
    match expr {
        Expr::Path(path) if path.qself.is_none() => Ok(CompleteAttr::Path(path.path)),
        Expr::Array(array) => {
            let span = array.span();
            let values = string_literals(&array).map_err(error)?;
            Ok(CompleteAttr::List(values, span))
        }
        other => Err(error(other.span())),
    }
}

/// A function's path, such as `visible = staff_only`.
fn fn_path(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<syn::Path> {
    match value(meta)? {
        Expr::Path(path) if path.qself.is_none() => Ok(path.path),
        other => Err(syn::Error::new(
            other.span(),
            format!("expected a function's path for `{key}`, such as `staff_only`"),
        )),
    }
}

/// The bounds of `range = 1..=10` (or `1..`, `..=10`), each as the text
/// of a number literal with where it was written; where the range was.
pub struct RangeAttr {
    pub min: Option<(String, Span)>,
    pub max: Option<(String, Span)>,
    pub span: Span,
}

fn range(meta: &ParseNestedMeta<'_>, _: &str) -> syn::Result<RangeAttr> {
    let expr = value(meta)?;
    let span = expr.span();
    let expected = || {
        syn::Error::new(
            span,
            "expected a range of number literals for `range`, such as `1..=10`, `0.0..=1.0`, `1..` or `..=10`",
        )
    };
    let Expr::Range(range) = &expr else {
        return Err(expected());
    };
    let bound = |bound: &Option<Box<Expr>>| -> syn::Result<Option<(String, Span)>> {
        bound
            .as_deref()
            .map(|b| {
                let b = ungrouped(b);
                number_text(b).map(|t| (t, b.span())).ok_or_else(expected)
            })
            .transpose()
    };
    let (min, max) = (bound(&range.start)?, bound(&range.end)?);
    if matches!(range.limits, syn::RangeLimits::HalfOpen(_)) && max.is_some() {
        return Err(syn::Error::new(
            span,
            "write the range with its last value, `..=`: a value equal to the end is allowed",
        ));
    }
    if min.is_none() && max.is_none() {
        return Err(expected());
    }
    let as_number =
        |bound: &Option<(String, Span)>| bound.as_ref().and_then(|(t, _)| t.parse::<f64>().ok());
    if let (Some(lo), Some(hi)) = (as_number(&min), as_number(&max)) {
        if lo > hi {
            return Err(syn::Error::new(
                span,
                "the range is empty: its start is past its end",
            ));
        }
    }
    Ok(RangeAttr { min, max, span })
}

/// The text of a number literal, `-` included.
fn number_text(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: lit @ (Lit::Int(_) | Lit::Float(_)),
            ..
        }) => literal_text(lit),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => number_text(inner)
            .filter(|t| !t.starts_with('-'))
            .map(|t| format!("-{t}")),
        _ => None,
    }
}

/// A literal in the string form a client would send (`default`, `example`).
fn literal_value(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<ArgValue> {
    let expr = value(meta)?;
    let span = expr.span();
    let text = match &expr {
        Expr::Lit(ExprLit { lit, .. }) => literal_text(lit),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit {
                lit: lit @ (Lit::Int(_) | Lit::Float(_)),
                ..
            }) => literal_text(lit).map(|t| format!("-{t}")),
            _ => None,
        },
        _ => None,
    };
    text.map(|text| ArgValue { text, span }).ok_or_else(|| {
        syn::Error::new(
            span,
            format!("expected a literal for `{key}`, such as `50`, `true` or `\"casual\"`"),
        )
    })
}

fn literal_text(lit: &Lit) -> Option<String> {
    Some(match lit {
        Lit::Str(s) => s.value(),
        Lit::Int(i) => i.base10_digits().to_owned(),
        Lit::Float(f) => f.base10_digits().to_owned(),
        Lit::Bool(b) => b.value.to_string(),
        Lit::Char(c) => c.value().to_string(),
        _ => return None,
    })
}
