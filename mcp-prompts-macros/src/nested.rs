//! The values of `key = value` entries inside an attribute's parentheses,
//! read the same way by every attribute: `#[prompt(..)]`, `#[arg(..)]`,
//! the extras (icons, `_meta`, tags) and `#[prompt_arg(..)]`.

use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitStr};

/// The expression after `key =`, as written: a `macro_rules!` fragment
/// (`name = $name` with `$name:literal`) arrives in an invisible group,
/// which says nothing of its own.
pub fn value(meta: &ParseNestedMeta<'_>) -> syn::Result<Expr> {
    let expr: Expr = meta.value()?.parse()?;
    Ok(ungrouped(&expr).clone())
}

/// `expr` out of any invisible groups around it.
pub fn ungrouped(mut expr: &Expr) -> &Expr {
    while let Expr::Group(group) = expr {
        expr = &group.expr;
    }
    expr
}

/// A string literal, for `key`.
pub fn lit_str(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<LitStr> {
    match value(meta)? {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s),
        other => Err(syn::Error::new(
            other.span(),
            format!("expected a string literal for `{key}`"),
        )),
    }
}

/// `["a", "b"]`.
pub fn lit_str_list(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Vec<LitStr>> {
    let expr = value(meta)?;
    let error = || {
        let (what, example) = if key == "scopes" {
            ("scopes", "[\"deploy\"]")
        } else if key == "tags" {
            ("tags", "[\"git\", \"review\"]")
        } else if key == "sizes" {
            ("sizes", "[\"48x48\"]")
        } else {
            ("argument names", "[\"draft\"]")
        };
        syn::Error::new(
            expr.span(),
            format!("expected a list of {what} for `{key}`, such as `{example}`"),
        )
    };
    let Expr::Array(array) = &expr else {
        return Err(error());
    };
    string_literals(array).map_err(|_| error())
}

/// The string literals of `[..]`; or where the first other element is.
pub fn string_literals(array: &syn::ExprArray) -> Result<Vec<LitStr>, proc_macro2::Span> {
    array
        .elems
        .iter()
        .map(|elem| match ungrouped(elem) {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Ok(s.clone()),
            other => Err(other.span()),
        })
        .collect()
}

/// Reports an unknown key, first skipping its value so that parsing goes on
/// to report the next problem rather than a confusing "expected `,`".
pub fn unknown_key(meta: &ParseNestedMeta<'_>, message: &str) -> syn::Result<()> {
    let error = meta.error(message.replace("{}", &path_text(meta)));
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::Group>()?;
    }
    Err(error)
}

fn path_text(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}
