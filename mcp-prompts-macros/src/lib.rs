//! Implementation detail of the [`mcp-prompts`](https://docs.rs/mcp-prompts) crate: its
//! macros, which work only through it. Use that crate instead; its re-exports carry the
//! documentation.

mod arglist;
mod ast;
mod attr;
mod case;
mod catalog;
mod derive_args;
mod derive_choice;
mod docs;
mod errors;
mod expand;
#[cfg(test)]
mod expansion_tests;
mod extras;
mod item;
mod nested;
mod paths;
mod prompt;
mod signature;
#[cfg(test)]
mod signature_tests;
#[cfg(feature = "skills")]
mod skill;
mod suggest;
mod template;
mod valid;

use proc_macro::TokenStream;

/// Whether handles and `PromptArgs` structs get typed builders (feature
/// `builders`): every setter is an item the compiler checks whether or
/// not it is called, so only builds that use them pay for them.
const BUILDERS: bool = cfg!(feature = "builders");

/// See the `mcp-prompts` crate.
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    prompt::expand(args.into(), item.into(), BUILDERS).into()
}

/// See the `mcp-prompts` crate.
#[proc_macro_derive(PromptArgs, attributes(arg))]
pub fn derive_prompt_args(input: TokenStream) -> TokenStream {
    derive_args::expand(input.into(), BUILDERS).into()
}

/// See the `mcp-prompts` crate.
#[proc_macro_derive(PromptArg, attributes(prompt_arg))]
pub fn derive_prompt_arg(input: TokenStream) -> TokenStream {
    derive_choice::expand(input.into()).into()
}

/// See the `mcp-prompts` crate.
#[proc_macro]
pub fn catalog(input: TokenStream) -> TokenStream {
    catalog::expand(input.into()).into()
}

/// See the `mcp-prompts` crate.
#[cfg(feature = "skills")]
#[proc_macro]
pub fn include_skill(input: TokenStream) -> TokenStream {
    skill::expand(input.into()).into()
}
