//! Every path generated code names, spelled here and nowhere else: the
//! runtime's public items through `::mcp_prompts`, its private ones through
//! `::mcp_prompts::__private`. Generated items stand at the user's scope,
//! where an alias of ours could clash, so paths are spelled in full.

use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};

/// The runtime's public API, as source text for [`code`]: `{PUBLIC}::Name`.
pub const PUBLIC: &str = "::mcp_prompts";

/// The runtime's private module, as source text for [`code`].
pub const PRIVATE: &str = "::mcp_prompts::__private";

/// An item of the runtime's public API: `::mcp_prompts::#name`.
pub fn public(name: &str) -> TokenStream {
    let name = syn::Ident::new(name, Span::call_site());
    quote!(::mcp_prompts::#name)
}

/// The runtime's private module: `::mcp_prompts::__private`.
pub fn private() -> Private {
    Private(Span::call_site())
}

/// The runtime's private module's path, `::mcp_prompts::__private`, with
/// its span. Interpolated into `quote!`, it adds its six tokens where it
/// stands: a `TokenStream` would cost a call into the compiler each time.
#[derive(Clone, Copy)]
pub struct Private(Span);

impl ToTokens for Private {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let colons = || {
            let mut first = Punct::new(':', Spacing::Joint);
            let mut second = Punct::new(':', Spacing::Alone);
            first.set_span(self.0);
            second.set_span(self.0);
            [TokenTree::Punct(first), TokenTree::Punct(second)]
        };
        tokens.extend(colons());
        tokens.extend([TokenTree::Ident(Ident::new("mcp_prompts", self.0))]);
        tokens.extend(colons());
        tokens.extend([TokenTree::Ident(Ident::new("__private", self.0))]);
    }
}

/// `Some("value")` or `None`, as source text for [`code`].
pub fn option_code(value: Option<&str>) -> String {
    match value {
        Some(value) => format!("{PRIVATE}::Some({})", str_code(value)),
        None => format!("{PRIVATE}::None"),
    }
}

/// A string literal of `value`, as source text for [`code`]: `Debug`
/// writes a string with only the escapes a Rust string literal has.
pub fn str_code(value: &str) -> String {
    format!("{value:?}")
}

/// Tokens from Rust source text, spanned at the macro's call site as
/// `quote!` spans them. Generated code that carries no span of the user's
/// is written this way: the compiler lexes the text in one call, where
/// `quote!` builds each token on its own (in the macro's unoptimized build,
/// most of what a prompt costs to expand).
pub fn code(text: &str) -> TokenStream {
    // Straight to the compiler when running as a macro: `proc_macro2`
    // would first lex the text itself, to check it, in the macro's
    // unoptimized build. Our text always lexes (the snapshot tests lex
    // every shape through `proc_macro2`, below).
    if proc_macro::is_available() {
        if let Ok(tokens) = text.parse::<proc_macro::TokenStream>() {
            return tokens.into();
        }
    }
    text.parse()
        .unwrap_or_else(|err| panic!("generated code does not lex: {err}: {text}"))
}

/// The runtime's private path, spanned on a user's token so that a trait
/// error in code naming it is reported there, and only once.
pub fn private_at(span: Span) -> Private {
    Private(span)
}

/// A `const` item that panics with the check's problem, if it finds one:
/// the compiler reports the message at `span`, which every token of the
/// item carries, and the panic is in the item itself, so the report points
/// nowhere else.
pub fn const_check(span: Span, check: &str, args: &TokenStream) -> TokenStream {
    const_checks(&[check_stmt(span, check, args)])
}

/// One check, as a statement of a `const` item: a call of a runtime check
/// that panics if it finds a problem. The checks are `#[track_caller]` and
/// every token here carries `span`, so the compiler reports the panic there.
pub fn check_stmt(span: Span, check: &str, args: &TokenStream) -> TokenStream {
    let check = syn::Ident::new(check, span);
    quote_spanned! {span=>
        ::mcp_prompts::__private::#check(#args);
    }
}

/// One `const` item running `checks` in order (nothing if there are none):
/// one item however many checks a prompt needs.
pub fn const_checks(checks: &[TokenStream]) -> TokenStream {
    if checks.is_empty() {
        return TokenStream::new();
    }
    quote! {
        const _: () = { #(#checks)* };
    }
}
