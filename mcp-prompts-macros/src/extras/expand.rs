//! Expansion: the extras as one `inventory` registration of the prompt's
//! `PromptExtras`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitBool;
use syn::LitStr;

use super::{LoadedIcon, MetaEntry, MetaLit};

/// The registration of the prompt's extras, when it declares any.
pub fn registration(
    ident: &syn::Ident,
    icons: &[LoadedIcon],
    meta: &[MetaEntry],
    tags: &[LitStr],
    as_tool: Option<&LitBool>,
) -> Option<TokenStream> {
    if icons.is_empty() && meta.is_empty() && tags.is_empty() && as_tool.is_none() {
        return None;
    }
    let private = crate::paths::private();
    let icons = icons.iter().map(|icon| {
        let src = &icon.src;
        let mime = match icon.mime_type {
            Some(mime) => quote!(::core::option::Option::Some(#mime)),
            None => quote!(::core::option::Option::None),
        };
        let sizes = &icon.sizes;
        let theme = match icon.theme {
            Some(theme) => {
                let theme = syn::Ident::new(theme, Span::call_site());
                quote!(::core::option::Option::Some(#private::IconTheme::#theme))
            }
            None => quote!(::core::option::Option::None),
        };
        // An edit of the file rebuilds the crate.
        let depend = icon.file.as_ref().map(|file| {
            let file = file.to_string_lossy();
            quote!(
                const _: &[u8] = ::core::include_bytes!(#file);
            )
        });
        let icon = quote!(#private::Icon::__static(
            #src,
            #mime,
            &[#(::std::borrow::Cow::Borrowed(#sizes)),*],
            #theme,
        ));
        match depend {
            Some(depend) => quote!({ #depend #icon }),
            None => icon,
        }
    });
    let meta = meta.iter().map(|entry| {
        let key = &entry.key;
        let value = meta_value(&entry.value);
        quote!((#key, #value))
    });
    let as_tool = as_tool.is_none_or(|b| b.value);
    Some(quote! {
        #private::inventory::submit! {
            #private::Extended(#ident::PROMPT, &#private::PromptExtras {
                icons: &[#(#icons),*],
                meta: &[#(#meta),*],
                tags: &[#(#tags),*],
                as_tool: #as_tool,
            })
        }
    })
}

/// The `MetaValue` a literal makes.
fn meta_value(value: &MetaLit) -> TokenStream {
    let private = crate::paths::private();
    match value {
        MetaLit::Text(s) => quote!(#private::MetaValue::Text(#s)),
        MetaLit::Bool(b) => quote!(#private::MetaValue::Bool(#b)),
        MetaLit::Integer(n) => {
            let (sign, value) = (
                sign(*n < 0),
                proc_macro2::Literal::u64_unsuffixed(n.unsigned_abs()),
            );
            quote!(#private::MetaValue::Integer(#sign #value))
        }
        MetaLit::Number(x) => {
            let (sign, value) = (
                sign(x.is_sign_negative()),
                proc_macro2::Literal::f64_unsuffixed(x.abs()),
            );
            quote!(#private::MetaValue::Number(#sign #value))
        }
    }
}

fn sign(negative: bool) -> TokenStream {
    if negative { quote!(-) } else { quote!() }
}
