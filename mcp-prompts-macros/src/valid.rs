//! Rules that need more than one piece of the model.

use syn::spanned::Spanned;
use syn::{ReturnType, Type};

use crate::ast::Prompt;
use crate::attr::Errors;

pub fn check(prompt: &Prompt<'_>) -> syn::Result<()> {
    let mut errors = Errors::default();
    let sig = &prompt.func.sig;
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new(
            sig.generics.span(),
            "`#[prompt]` functions cannot be generic",
        ));
    }
    if let Some(where_clause) = &sig.generics.where_clause {
        errors.push(syn::Error::new(
            where_clause.span(),
            "`#[prompt]` functions cannot have a `where` clause",
        ));
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.push(syn::Error::new(
            token.span(),
            "`#[prompt]` functions cannot be `unsafe`",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new(
            variadic.span(),
            "`#[prompt]` functions cannot be variadic",
        ));
    }
    if let ReturnType::Type(_, ty) = &sig.output {
        if let Type::ImplTrait(_) = &**ty {
            errors.push(syn::Error::new(
                ty.span(),
                "`#[prompt]` functions cannot return `impl Trait`; name the type, such as `String` or `Vec<Message>`",
            ));
        }
    }

    let (name, span) = prompt.name();
    if !is_valid_name(&name) {
        errors.push(syn::Error::new(span, invalid_name("prompt", &name)));
    }

    let mut seen: Vec<String> = Vec::new();
    for param in &prompt.params {
        if let Type::ImplTrait(_) = param.ty {
            errors.push(syn::Error::new(
                param.ty.span(),
                "`#[prompt]` parameters cannot be `impl Trait`; name the type",
            ));
        }
        let (name, span) = param.name();
        if !is_valid_name(&name) {
            errors.push(syn::Error::new(span, invalid_name("argument", &name)));
        } else if seen.contains(&name) {
            errors.push(syn::Error::new(
                span,
                format!("duplicate argument name `{name}`"),
            ));
        }
        seen.push(name);
    }
    errors.finish()
}

/// The name rule MCP gives tools, applied to prompts and their arguments;
/// the runtime checks the same rule for definitions it did not get from us.
fn is_valid_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn invalid_name(what: &str, name: &str) -> String {
    format!(
        "invalid {what} name `{name}`: use 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`"
    )
}
