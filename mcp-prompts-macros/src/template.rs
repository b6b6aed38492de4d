//! Prompt templates, parsed and checked at compile time (the syntax is
//! `mcp-prompts-template`'s) and emitted as the runtime's `Template`.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitStr;

use crate::paths::Private;

pub use mcp_prompts_template::{Message, Part, Role, parse};

/// A template and where it came from.
pub struct Template {
    pub messages: Vec<Message>,
    /// The file to depend on, for `template_file`.
    pub file: Option<PathBuf>,
    pub span: Span,
}

impl Template {
    /// Reads an inline template or a file relative to the crate's root.
    pub fn load(lit: &LitStr, is_file: bool) -> syn::Result<Self> {
        let span = lit.span();
        let (text, file) = if is_file {
            let root = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
            let path = PathBuf::from(root).join(lit.value());
            let text = std::fs::read_to_string(&path).map_err(|err| {
                syn::Error::new(
                    span,
                    format!(
                        "cannot read template file `{}` (relative to the crate's root, where its Cargo.toml is): {err}",
                        lit.value()
                    ),
                )
            })?;
            (text, Some(path))
        } else {
            (lit.value(), None)
        };
        let messages = parse(&text).map_err(|err| {
            let origin = if is_file { "template file" } else { "template" };
            syn::Error::new(
                span,
                format!("{origin}, line {}: {}", err.line, err.message),
            )
        })?;
        Ok(Self {
            messages,
            file,
            span,
        })
    }

    /// Every placeholder's name, once each, in order of first use.
    pub fn placeholders(&self) -> Vec<&str> {
        mcp_prompts_template::placeholders(&self.messages)
    }

    /// Every argument name a section depends on, once each.
    pub fn sections(&self) -> Vec<&str> {
        mcp_prompts_template::sections(&self.messages)
    }

    /// The runtime's `Template`, as a const expression.
    pub fn to_tokens(&self, private: Private) -> TokenStream {
        let messages = self.messages.iter().map(|message| {
            let role = match message.role {
                Role::User => quote!(#private::Role::User),
                Role::Assistant => quote!(#private::Role::Assistant),
            };
            let parts = message.parts.iter().map(|part| match part {
                Part::Text(text) => quote!(#private::Part::Text(#text)),
                Part::Arg(name) => quote!(#private::Part::Arg(#name)),
                Part::Section { name, when_set } => {
                    quote!(#private::Part::Section { name: #name, when_set: #when_set })
                }
                Part::End => quote!(#private::Part::End),
            });
            quote!(#private::TemplateMessage { role: #role, parts: &[#(#parts),*] })
        });
        quote!(#private::Template { messages: &[#(#messages),*] })
    }
}
