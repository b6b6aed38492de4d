//! The item `#[prompt]` is applied to, parsed no further than needed: the
//! signature is parsed, the body is kept as written, unparsed. Parsing a
//! long body only to print it back would cost compile time for nothing.

use proc_macro2::{Group, TokenStream};
use quote::{ToTokens, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, FnArg, Signature, Token, Visibility};

use crate::attr::ARG;
use crate::docs;

/// A function, or a declaration ending in `;` (a template prompt).
pub struct PromptItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub sig: Signature,
    /// The body, as written; `None` for a declaration.
    pub body: Option<Group>,
}

impl Parse for PromptItem {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        let sig = input.parse()?;
        let body = if input.peek(Token![;]) {
            input.parse::<Token![;]>()?;
            None
        } else {
            let group: Group = input.parse()?;
            if group.delimiter() != proc_macro2::Delimiter::Brace {
                return Err(syn::Error::new(group.span(), "expected a function body"));
            }
            Some(group)
        };
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the function"));
        }
        Ok(Self {
            attrs,
            vis,
            sig,
            body,
        })
    }
}

impl PromptItem {
    /// The function as written, minus the `#[arg]` and doc attributes on
    /// its parameters, which Rust does not allow there. Parameters must be
    /// owned to be bound from a request, so clippy's advice to borrow them
    /// is silenced. Nothing for a declaration.
    pub fn user_fn(&self) -> TokenStream {
        let Some(body) = &self.body else {
            return TokenStream::new();
        };
        let mut sig = self.sig.clone();
        for input in &mut sig.inputs {
            if let FnArg::Typed(typed) = input {
                typed
                    .attrs
                    .retain(|a| !a.path().is_ident(ARG) && !docs::is_doc(a));
            }
        }
        let attrs = &self.attrs;
        let vis = &self.vis;
        let mut out = quote! {
            #(#attrs)*
            #[allow(clippy::needless_pass_by_value)]
            #vis #sig
        };
        body.to_tokens(&mut out);
        out
    }
}
