//! Implementation detail of the `mcp-prompts` crate; use that crate instead.

mod ast;
mod attr;
mod docs;
mod expand;
mod prompt;
mod valid;

use proc_macro::TokenStream;

/// See the `mcp-prompts` crate.
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    prompt::expand(args.into(), item.into()).into()
}
