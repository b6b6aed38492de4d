//! Every path generated code names, spelled here and nowhere else: the
//! runtime's public items through `::mcp_prompts`, its private ones through
//! `::mcp_prompts::__private`, which inside an anonymous const is aliased to
//! a short name (every token crosses the proc-macro bridge).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// An item of the runtime's public API: `::mcp_prompts::#name`.
pub fn public(name: &str) -> TokenStream {
    let name = syn::Ident::new(name, Span::call_site());
    quote!(::mcp_prompts::#name)
}

/// The runtime's private module, as generated code inside an anonymous
/// const names it: through the alias [`private_alias`] declares, which
/// keeps the expansion short (every token crosses the proc-macro bridge).
pub fn private() -> TokenStream {
    quote!(__mcp_prompts)
}

/// The alias `private()` goes through; first in each anonymous const.
pub fn private_alias() -> TokenStream {
    quote!(
        use ::mcp_prompts::__private as __mcp_prompts;
    )
}

/// The full path, for generated code outside an anonymous const.
pub fn private_path() -> TokenStream {
    quote!(::mcp_prompts::__private)
}

/// `Some(value)` or `None`, as generated code inside an anonymous const
/// spells them.
pub fn option(value: Option<String>) -> TokenStream {
    let private = private();
    match value {
        Some(value) => quote!(#private::Some(#value)),
        None => quote!(#private::None),
    }
}

/// The runtime's private path, spanned on a user's token so that a trait
/// error in code naming it is reported there, and only once.
pub fn private_at(span: Span) -> TokenStream {
    quote_spanned!(span=> __mcp_prompts)
}

/// A `const` item that panics with the check's problem, if it finds one:
/// the compiler reports the message at `span`, which every token of the
/// item carries, and the panic is in the item itself, so the report points
/// nowhere else.
pub fn const_check(span: Span, check: &str, args: &TokenStream) -> TokenStream {
    let check = syn::Ident::new(check, span);
    quote_spanned! {span=>
        const _: () = if let ::core::option::Option::Some(problem) =
            ::mcp_prompts::__private::#check(#args)
        {
            ::core::panic!("{}", problem.as_str())
        };
    }
}
