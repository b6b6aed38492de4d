use proc_macro2::TokenStream;

use crate::item::PromptItem;
use crate::template::Template;
use crate::{ast, attr, expand, suggest, valid};

/// `#[prompt]`: parse, validate, expand. On error the user's function is
/// still emitted (with our parameter attributes removed), with a handle
/// module that cannot be served, so the one error is all the user sees.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let func: PromptItem = match syn::parse2(item.clone()) {
        Ok(func) => func,
        Err(err) => return not_a_function(item, err),
    };
    let (vis, sig) = (&func.vis, &func.sig);
    let body = func.body.as_ref().map(proc_macro2::Group::span);
    let attrs = attr::parse_prompt(args);
    let result = ast::Prompt::new(&func.attrs, vis, sig, body, attrs).and_then(|prompt| {
        valid::check(&prompt)?;
        let template = match prompt.template_lit() {
            Some(lit) => Some(Template::load(lit, prompt.attrs.template.is_none())?),
            None => None,
        };
        check_placeholders_syntactically(&prompt, template.as_ref())?;
        Ok(expand::prompt(&prompt, &func, template.as_ref()))
    });
    match result {
        Ok(expanded) => expanded,
        Err(err) => {
            let name = sig.ident.to_string();
            let name = name.strip_prefix("r#").unwrap_or(&name);
            let mut out = func.user_fn();
            // A method's handle module would be a second error: modules
            // cannot stand in an `impl`.
            if sig.receiver().is_none() {
                out.extend(expand::placeholder_handle(vis, &sig.ident, name));
            }
            out.extend(err.into_compile_error());
            out
        }
    }
}

/// A valid item that is not a function gets a clearer message than syn's
/// "expected `fn`".
fn not_a_function(item: TokenStream, err: syn::Error) -> TokenStream {
    let err = match syn::parse2::<syn::Item>(item.clone()) {
        Ok(other) => {
            syn::Error::new_spanned(other, "`#[prompt]` can only be applied to a function")
        }
        Err(_) => err,
    };
    let mut out = item;
    out.extend(err.into_compile_error());
    out
}

/// Without flattened structs every argument name is known here, so a
/// placeholder naming none of them gets a plain error rather than a
/// const-evaluation one.
fn check_placeholders_syntactically(
    prompt: &ast::Prompt<'_>,
    template: Option<&Template>,
) -> syn::Result<()> {
    let Some(template) = template else {
        return Ok(());
    };
    if expand::has_flatten(&prompt.params) {
        return Ok(());
    }
    let names: Vec<String> = prompt.params.iter().map(|p| p.name().0).collect();
    let mut errors = attr::Errors::default();
    for placeholder in template.placeholders() {
        if !names.iter().any(|n| n == placeholder) {
            let hint = match suggest::closest(placeholder, names.iter().map(String::as_str)) {
                Some(name) => format!("did you mean `{{{name}}}`? "),
                None => String::new(),
            };
            errors.push(syn::Error::new(
                template.span,
                format!(
                    "template placeholder `{{{placeholder}}}` names no argument of this prompt; {hint}write `{{{{` for a literal brace"
                ),
            ));
        }
    }
    errors.finish()
}
