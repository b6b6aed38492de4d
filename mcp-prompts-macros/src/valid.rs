//! Rules that need more than one piece of the model, and the template,
//! loaded and checked against the arguments.

use syn::spanned::Spanned;
use syn::{ReturnType, Type};

use crate::ast::{Param, Prompt, has_flatten};
use crate::errors::Errors;
use crate::extras::{self, LoadedIcon};
use crate::suggest;
use crate::template::Template;

/// How many parameters the runtime's generic glue takes at most: it has
/// `call0` to `call12` (`mcp-prompts/src/private/glue.rs`; the UI tests
/// compile 12 parameters and refuse 13).
const MAX_PARAMS: usize = 12;

/// What checking a `#[prompt]` loaded: its template, parsed, if it has
/// one; its icons, files read.
pub struct Checked {
    pub template: Option<Template>,
    pub icons: Vec<LoadedIcon>,
}

/// Every rule of a `#[prompt]`, and what it loaded.
pub fn check(prompt: &Prompt<'_>) -> syn::Result<Checked> {
    let mut errors = Errors::default();
    check_signature(prompt, &mut errors);
    let (name, span) = prompt.name();
    if !is_valid_name(&name) {
        errors.push(syn::Error::new(span, invalid_name("prompt", &name)));
    }
    check_params(&prompt.params, "`#[prompt]` parameters", &mut errors);
    check_template_attrs(prompt, &mut errors);
    check_scopes(prompt, &mut errors);
    let attrs = &prompt.attrs;
    let meta = attrs.meta.as_deref().unwrap_or_default();
    let tags = attrs.tags.as_deref().unwrap_or_default();
    let icons = extras::load(&attrs.icons, meta, tags, &mut errors);
    errors.into_result()?;
    let Some(lit) = prompt.template_lit() else {
        return Ok(Checked {
            template: None,
            icons,
        });
    };
    let template = Template::load(lit, prompt.attrs.template.is_none())?;
    check_placeholders(prompt, &template)?;
    Ok(Checked {
        template: Some(template),
        icons,
    })
}

fn check_signature(prompt: &Prompt<'_>, errors: &mut Errors) {
    let sig = prompt.sig;
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
    let rust_abi = |abi: &syn::Abi| abi.name.as_ref().is_some_and(|n| n.value() == "Rust");
    if let Some(abi) = sig.abi.as_ref().filter(|abi| !rust_abi(abi)) {
        errors.push(syn::Error::new(
            abi.span(),
            "`#[prompt]` functions cannot name an ABI: the server calls them as Rust functions",
        ));
    }
    // The runtime's glue has one generic function per number of
    // parameters; a template prompt needs none.
    if prompt.template_lit().is_none() {
        if let Some(extra) = prompt.params.get(MAX_PARAMS) {
            errors.push(syn::Error::new(
                extra.ident.span(),
                format!(
                    "a `#[prompt]` function takes at most {MAX_PARAMS} parameters; group some in a `#[derive(PromptArgs)]` struct taken with `#[arg(flatten)]`"
                ),
            ));
        }
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
}

/// Rules for a list of arguments, shared by prompt parameters and
/// `PromptArgs` fields. `what` names them in messages.
pub fn check_params(params: &[Param<'_>], what: &str, errors: &mut Errors) {
    let mut seen: Vec<String> = Vec::new();
    for param in params {
        match param.ty {
            Type::ImplTrait(_) => errors.push(syn::Error::new(
                param.ty.span(),
                format!("{what} cannot be `impl Trait`; name the type"),
            )),
            Type::Reference(reference) => errors.push(syn::Error::new(
                reference.and_token.span,
                format!(
                    "{what} cannot borrow: each call parses the arguments into values of its own; take {}",
                    if is_str(&reference.elem) {
                        "`String` rather than `&str`"
                    } else {
                        "an owned type rather than a reference"
                    }
                ),
            )),
            _ => {}
        }
        if param.is_flatten() {
            let attrs = &param.attrs;
            let conflicting = [
                attrs.name.as_ref().map(|l| ("name", l.span())),
                attrs.title.as_ref().map(|l| ("title", l.span())),
                attrs
                    .description
                    .as_ref()
                    .map(|l| ("description", l.span())),
                attrs.default.as_ref().map(|d| ("default", d.span)),
                attrs.example.as_ref().map(|d| ("example", d.span)),
                attrs.range.as_ref().map(|r| ("range", r.span)),
                attrs.complete.as_ref().map(|c| ("complete", c.span())),
            ];
            for (key, span) in conflicting.into_iter().flatten() {
                errors.push(syn::Error::new(
                    span,
                    format!("`{key}` cannot be combined with `flatten`: a flattened struct's fields are the arguments"),
                ));
            }
            continue;
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
}

fn is_str(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none() && path.path.is_ident("str"))
}

/// Each scope must be a scope token (RFC 6749 §3.3), as the runtime's
/// run-time prompts require: it is sent in `WWW-Authenticate` headers and
/// compared with a token's space-separated `scope`.
fn check_scopes(prompt: &Prompt<'_>, errors: &mut Errors) {
    for scope in prompt.attrs.scopes.iter().flatten() {
        let value = scope.value();
        let valid = !value.is_empty()
            && value
                .bytes()
                .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E));
        if !valid {
            errors.push(syn::Error::new(
                scope.span(),
                format!(
                    "invalid scope `{value}`: a scope is one or more printable ASCII characters, without spaces, `\"` or `\\`"
                ),
            ));
        }
    }
}

fn check_template_attrs(prompt: &Prompt<'_>, errors: &mut Errors) {
    let attrs = &prompt.attrs;
    if let (Some(_), Some(file)) = (&attrs.template, &attrs.template_file) {
        errors.push(syn::Error::new(
            file.span(),
            "use either `template` or `template_file`, not both",
        ));
    }
    let sig = prompt.sig;
    if prompt.template_lit().is_none() {
        if let Some(unused) = attrs.unused.as_ref().and_then(|u| u.first()) {
            errors.push(syn::Error::new(
                unused.span(),
                "`unused` lists arguments a template does not use; this prompt has no template",
            ));
        }
        if prompt.body.is_none() {
            errors.push(syn::Error::new(
                sig.span(),
                "this `#[prompt]` function needs a body; only a template prompt (`#[prompt(template = \"...\")]`) is declared without one",
            ));
        }
        return;
    }
    if let Some(body) = prompt.body {
        errors.push(syn::Error::new(
            body,
            "a template prompt is declared without a body, the template is its body: end the declaration with `;`",
        ));
    }
    if let Some(token) = &sig.asyncness {
        errors.push(syn::Error::new(
            token.span(),
            "a template prompt cannot be `async`: it has no body to run",
        ));
    }
    if let ReturnType::Type(_, ty) = &sig.output {
        errors.push(syn::Error::new(
            ty.span(),
            "a template prompt declares no return type: it returns the template's messages",
        ));
    }
    if !prompt.params.iter().any(Param::is_flatten) {
        let names: Vec<String> = prompt.params.iter().map(|p| p.name().0).collect();
        for unused in attrs.unused.iter().flatten() {
            if !names.contains(&unused.value()) {
                errors.push(syn::Error::new(
                    unused.span(),
                    format!("`{}` is not an argument of this prompt", unused.value()),
                ));
            }
        }
    }
}

/// Without flattened structs every argument name is known here, so a
/// placeholder naming none of them gets a plain error rather than a
/// const-evaluation one.
fn check_placeholders(prompt: &Prompt<'_>, template: &Template) -> syn::Result<()> {
    if has_flatten(&prompt.params) {
        return Ok(());
    }
    let names: Vec<String> = prompt.params.iter().map(|p| p.name().0).collect();
    let mut errors = Errors::default();
    let sections = template.sections();
    for placeholder in template.placeholders() {
        if !names.iter().any(|n| n == placeholder) {
            let closest = suggest::closest(placeholder, names.iter().map(String::as_str));
            let message = if sections.contains(&placeholder) {
                let hint = closest.map_or(String::new(), |name| {
                    format!("; did you mean `{{#{name}}}`?")
                });
                format!(
                    "template section `{{#{placeholder}}}` names no argument of this prompt{hint}"
                )
            } else {
                let hint =
                    closest.map_or(String::new(), |name| format!("did you mean `{{{name}}}`? "));
                format!(
                    "template placeholder `{{{placeholder}}}` names no argument of this prompt; {hint}write `{{{{` for a literal brace"
                )
            };
            errors.push(syn::Error::new(template.span, message));
        }
    }
    errors.into_result()
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
