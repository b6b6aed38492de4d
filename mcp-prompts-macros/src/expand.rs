//! Code generation. Nothing here can fail: every rule was checked before.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, ReturnType};

use crate::ast::{Param, Prompt};
use crate::attr::ARG;
use crate::docs;

/// The path every generated item goes through, kept in one place.
fn private() -> TokenStream {
    quote!(::mcp_prompts::__private)
}

/// The user's function as written, minus the `#[arg]` and doc attributes
/// on its parameters, which Rust does not allow there. Parameters must be
/// owned to be bound from a request, so clippy's advice to borrow them is
/// silenced.
pub fn user_fn(func: &ItemFn) -> ItemFn {
    let mut func = func.clone();
    func.attrs
        .push(syn::parse_quote!(#[allow(clippy::needless_pass_by_value)]));
    for input in &mut func.sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed
                .attrs
                .retain(|a| !a.path().is_ident(ARG) && !docs::is_doc(a));
        }
    }
    func
}

/// The function, then a private glue function and its registration.
pub fn prompt(prompt: &Prompt<'_>) -> TokenStream {
    let func = user_fn(prompt.func);
    let invoke = invoke_fn(prompt);
    let registration = registration(prompt);
    quote! {
        #func
        const _: () = {
            #invoke
            #registration
        };
    }
}

/// Binds each parameter through one generic helper, calls the user's
/// function, and converts its result through one trait.
fn invoke_fn(prompt: &Prompt<'_>) -> TokenStream {
    let private = private();
    let sig = &prompt.func.sig;
    let ident = &sig.ident;
    let binds = prompt.params.iter().enumerate().map(|(index, param)| {
        let ty = param.ty;
        // Spanned on the user's type: an unsupported type is reported there.
        let bind = quote_spanned!(ty.span()=> <#ty as #private::PromptParam>::bind);
        quote!(#bind(__input, #private::arg(__input, #index))?)
    });
    let (output, span) = match &sig.output {
        ReturnType::Type(_, ty) => (quote!(#ty), ty.span()),
        ReturnType::Default => (quote!(()), ident.span()),
    };
    // Spanned on the return type, for the same reason.
    let wrap = match sig.asyncness {
        Some(_) => quote_spanned!(span=> #private::pending::<#output, _>),
        None => quote_spanned!(span=> #private::ready::<#output>),
    };
    quote! {
        fn __mcp_prompts_invoke(
            __input: &#private::Input<'_>,
        ) -> ::core::result::Result<#private::Invocation, #private::Error> {
            ::core::result::Result::Ok(#wrap(#ident(#(#binds),*)))
        }
    }
}

fn registration(prompt: &Prompt<'_>) -> TokenStream {
    let private = private();
    let (name, _) = prompt.name();
    let title = option(prompt.attrs.title.as_ref().map(syn::LitStr::value));
    let description = option(prompt.description());
    let args = prompt.params.iter().map(arg_def);
    let line = quote_spanned!(prompt.func.sig.ident.span()=> ::core::line!());
    quote! {
        #private::inventory::submit! {
            #private::PromptDef {
                name: #name,
                title: #title,
                description: #description,
                arguments: &[#(#args),*],
                invoke: __mcp_prompts_invoke,
                file: ::core::file!(),
                line: #line,
            }
        }
    }
}

fn arg_def(param: &Param<'_>) -> TokenStream {
    let private = private();
    let ty = param.ty;
    let (name, _) = param.name();
    let title = option(param.attrs.title.as_ref().map(syn::LitStr::value));
    let description = option(param.description());
    let default = match &param.attrs.default {
        Some(default) => {
            let text = &default.text;
            let check = quote_spanned!(default.span=> #private::check_default::<#ty>);
            quote!(#private::Some(#private::DefaultValue { text: #text, check: #check }))
        }
        None => quote!(#private::None),
    };
    let kind = quote_spanned!(ty.span()=> <#ty as #private::PromptParam>::KIND);
    quote! {
        #private::ArgDef {
            name: #name,
            title: #title,
            description: #description,
            default: #default,
            kind: #kind,
        }
    }
}

fn option(value: Option<String>) -> TokenStream {
    let private = private();
    match value {
        Some(value) => quote!(#private::Some(#value)),
        None => quote!(#private::None),
    }
}
