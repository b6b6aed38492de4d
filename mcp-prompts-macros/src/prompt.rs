//! `#[prompt]`: parse, validate, expand. On error the user's function is
//! still emitted (with our parameter attributes removed), with a handle
//! that cannot be served, so the one error is all the user sees.

use proc_macro2::TokenStream;

use crate::item::PromptItem;
use crate::{ast, attr, expand, valid};

/// Expands `#[prompt]`; `builders` gives the handle a typed builder.
pub fn expand(args: TokenStream, item: TokenStream, builders: bool) -> TokenStream {
    let func = match PromptItem::parse(item.clone()) {
        Ok(func) => func,
        Err(err) => return not_a_function(item, err),
    };
    let (vis, sig) = (&func.vis, &func.sig);
    let body = func.body.as_ref().map(proc_macro2::Group::span);
    let attrs = attr::parse_prompt(args);
    let result = ast::Prompt::new(&func.attrs, vis, sig, body, attrs).and_then(|prompt| {
        let checked = valid::check(&prompt)?;
        Ok(expand::prompt(&prompt, &func, &checked, builders))
    });
    match result {
        Ok(expanded) => expanded,
        Err(err) => {
            let name = sig.ident.to_string();
            let name = name.strip_prefix("r#").unwrap_or(&name);
            let mut out = func.user_fn("");
            // A method's handle would be a second error: structs
            // cannot stand in an `impl`.
            if sig.receiver().is_none() {
                out.extend(expand::placeholder_handle(vis, &sig.ident, name, builders));
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
