//! `catalog![a, b, ...]`: an explicit list of prompts, checked at compile
//! time. Each entry must be a `#[prompt]` function's path (its handle struct
//! resolves, or the compiler says it does not), and no two entries may
//! share a prompt name (a const check, reported on the second entry).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Path, Token};

use crate::paths::{const_check, public};

pub fn expand(input: TokenStream) -> TokenStream {
    let paths = match Punctuated::<Path, Token![,]>::parse_terminated.parse2(input) {
        Ok(paths) => paths,
        Err(err) => return err.into_compile_error(),
    };
    let paths: Vec<&Path> = paths.iter().collect();
    let entries = paths.iter().map(|path| {
        let prompt = quote_spanned!(path.span()=> PROMPT);
        quote!(&#path::#prompt)
    });
    let checks = paths.iter().enumerate().skip(1).map(|(index, path)| {
        let earlier = paths[..index].iter().map(|p| {
            let (text, name) = (path_text(p), name_of(p));
            quote!((#text, #name))
        });
        let name = name_of(path);
        const_check(
            path.span(),
            "check_catalog_entry",
            &quote!(&[#(#earlier),*], #name),
        )
    });
    let def = public("PromptDef");
    quote! {{
        #(#checks)*
        const CATALOG: &[&#def] = &[#(#entries),*];
        CATALOG
    }}
}

/// The path as written: `review::code_review`.
fn path_text(path: &Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let prefix = if path.leading_colon.is_some() {
        "::"
    } else {
        ""
    };
    format!("{prefix}{}", segments.join("::"))
}

fn name_of(path: &Path) -> TokenStream {
    let name = quote_spanned!(path.span()=> NAME);
    quote!(#path::#name)
}
