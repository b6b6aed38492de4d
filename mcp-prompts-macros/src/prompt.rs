use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ItemFn;

use crate::{ast, attr, expand, valid};

/// `#[prompt]`: parse, validate, expand. On error the user's function is
/// still emitted (with our parameter attributes removed), so the one error
/// is all the user sees.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let func: ItemFn = match syn::parse2(item.clone()) {
        Ok(func) => func,
        Err(err) => {
            // A valid item that is not a function gets a clearer message
            // than syn's "expected `fn`".
            let err = match syn::parse2::<syn::Item>(item.clone()) {
                Ok(other) => {
                    syn::Error::new_spanned(other, "`#[prompt]` can only be applied to a function")
                }
                Err(_) => err,
            };
            let mut out = item;
            out.extend(err.into_compile_error());
            return out;
        }
    };
    match try_expand(args, &func) {
        Ok(expanded) => expanded,
        Err(err) => {
            let mut out = expand::user_fn(&func).into_token_stream();
            out.extend(err.into_compile_error());
            out
        }
    }
}

fn try_expand(args: TokenStream, func: &ItemFn) -> syn::Result<TokenStream> {
    let attrs = attr::parse_prompt(args);
    let prompt = ast::Prompt::from_syn(func, attrs)?;
    valid::check(&prompt)?;
    Ok(expand::prompt(&prompt))
}
