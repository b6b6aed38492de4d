//! Code generation for `#[prompt]`. Nothing here can fail: every rule was
//! checked before.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ReturnType, Visibility};

use crate::arglist;
use crate::ast::{Prompt, has_flatten};
use crate::item::PromptItem;
use crate::paths::{const_check, option, private, private_alias, private_path, public};
use crate::template::Template;

/// The function (unless a template stands for it), its handle module, and
/// inside an anonymous const: the glue function, the descriptor, the
/// compile-time checks, the builder's setters and the registration.
pub fn prompt(prompt: &Prompt<'_>, func: &PromptItem, template: Option<&Template>) -> TokenStream {
    let private = private();
    let ident = &prompt.sig.ident;
    let func = func.user_fn();
    let handle = handle_module(prompt);
    let invoke = invoke_fn(prompt, template);
    let describe = describe(prompt);
    let checks = checks(prompt, template);
    let setters = arglist::setters(&prompt.params, prompt.vis);
    let cfgs = cfgs(prompt);
    let alias = private_alias();
    quote! {
        #func
        #handle
        #(#cfgs)*
        const _: () = {
            #alias
            #invoke
            #describe
            #checks
            #[allow(dead_code, private_bounds, private_interfaces)]
            impl #ident::Args {
                #setters
            }
            #private::inventory::submit! {
                #private::Registration(&#ident::PROMPT)
            }
        };
    }
}

/// `code_review::NAME`, `code_review::PROMPT` and `code_review::args()`:
/// a module shares the function's name without clashing with it, because
/// modules and functions live in different namespaces.
fn handle_module(prompt: &Prompt<'_>) -> TokenStream {
    let private = private_path();
    let (name, _) = prompt.name();
    let doc = format!(
        "The `{name}` prompt's handle: its name, its definition and a typed builder of its arguments."
    );
    let cfgs = cfgs(prompt);
    let handle = handle(
        prompt.vis,
        &prompt.sig.ident,
        &name,
        &quote!(<__Describe as #private::Describe>::DEF),
    );
    quote! {
        #[doc = #doc]
        #(#cfgs)*
        #handle
    }
}

/// After an error, a handle module whose definition can never be served,
/// so that uses of the handle elsewhere do not add errors of their own.
pub fn placeholder_handle(vis: &Visibility, ident: &syn::Ident, name: &str) -> TokenStream {
    let private = private_path();
    handle(vis, ident, name, &quote!(#private::placeholder_def(NAME)))
}

/// The handle module, whose `PROMPT` is `def`.
fn handle(vis: &Visibility, ident: &syn::Ident, name: &str, def: &TokenStream) -> TokenStream {
    let (prompt_def, get_prompt) = (public("PromptDef"), public("GetPrompt"));
    quote! {
        #[allow(dead_code)]
        #vis mod #ident {
            /// The prompt's name, as clients know it.
            pub const NAME: &str = #name;

            /// The prompt's definition, for
            /// [`Server::prompts`](::mcp_prompts::Server::prompts) and
            /// [`catalog!`](::mcp_prompts::catalog!).
            pub static PROMPT: #prompt_def = #def;

            /// Starts a `prompts/get` request for this prompt; each argument
            /// has a setter that takes its own type or the text a client
            /// would send.
            #[must_use]
            pub fn args() -> Args {
                Args(#get_prompt::new(NAME))
            }

            /// This prompt's arguments, set one method per argument;
            /// converts into a [`GetPrompt`](::mcp_prompts::GetPrompt).
            pub struct Args(#[doc(hidden)] pub #get_prompt);

            impl ::core::convert::From<Args> for #get_prompt {
                fn from(args: Args) -> Self {
                    args.0
                }
            }

            #[doc(hidden)]
            pub enum __Describe {}
        }
    }
}

/// The function's `#[cfg]` attributes, which everything generated for it
/// must share.
fn cfgs<'a>(prompt: &Prompt<'a>) -> impl Iterator<Item = &'a syn::Attribute> {
    prompt
        .attrs_of_fn
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
}

/// Binds each parameter through one generic helper, then calls the user's
/// function and converts its result through one trait, or renders the
/// template once every argument has been checked.
fn invoke_fn(prompt: &Prompt<'_>, template: Option<&Template>) -> TokenStream {
    let private = private();
    let sig = prompt.sig;
    let ident = &sig.ident;
    let binds = prompt.params.iter().enumerate().map(|(index, param)| {
        let position = arglist::position(&prompt.params, index);
        arglist::bind(param, &quote!(#private::arg(__input, #position)))
    });
    let body = match template {
        Some(template) => {
            let template = template.to_tokens(&private);
            quote! {
                let _ = (#(#binds,)*);
                static TEMPLATE: #private::Template = #template;
                ::core::result::Result::Ok(#private::ready::<::std::vec::Vec<#private::Message>>(
                    TEMPLATE.render(__input),
                ))
            }
        }
        None => {
            let (output, span) = match &sig.output {
                ReturnType::Type(_, ty) => (quote!(#ty), ty.span()),
                ReturnType::Default => (quote!(()), ident.span()),
            };
            // Spanned on the return type: an unsupported one is reported there.
            let wrap = match sig.asyncness {
                Some(_) => quote_spanned!(span=> #private::pending::<#output, _>),
                None => quote_spanned!(span=> #private::ready::<#output>),
            };
            quote!(::core::result::Result::Ok(#wrap(#ident(#(#binds),*))))
        }
    };
    quote! {
        fn __mcp_prompts_invoke(
            __input: &#private::Input<'_>,
        ) -> ::core::result::Result<#private::Invocation, #private::Error> {
            #body
        }
    }
}

/// The descriptor, built here where the user's types resolve and handed to
/// the handle module's `static` through its marker type.
fn describe(prompt: &Prompt<'_>) -> TokenStream {
    let private = private();
    let ident = &prompt.sig.ident;
    let (name, _) = prompt.name();
    let title = option(prompt.attrs.title.as_ref().map(syn::LitStr::value));
    let description = option(prompt.description());
    let args = arglist::defs(&prompt.params);
    let line = quote_spanned!(ident.span()=> ::core::line!());
    quote! {
        impl #private::Describe for #ident::__Describe {
            const DEF: #private::PromptDef = #private::PromptDef {
                name: #name,
                title: #title,
                description: #description,
                params: #args,
                invoke: __mcp_prompts_invoke,
                file: ::core::file!(),
                line: #line,
            };
        }
    }
}

/// Checks that need the flattened structs' argument names, which only the
/// compiler knows: evaluated as consts, reported on the user's tokens.
fn checks(prompt: &Prompt<'_>, template: Option<&Template>) -> TokenStream {
    let private = private();
    let ident = &prompt.sig.ident;
    let (name, _) = prompt.name();
    let args = quote!(<#ident::__Describe as #private::Describe>::DEF.params);
    let mut checks = vec![arglist::default_checks(&prompt.params)];
    if let Some(flatten) = prompt.params.iter().find_map(|p| p.attrs.flatten) {
        let owner = format!("prompt `{name}`");
        checks.push(const_check(flatten, "check_unique", &quote!(#args, #owner)));
    }
    if let Some(template) = template {
        let placeholders = template.placeholders();
        for placeholder in &placeholders {
            checks.push(const_check(
                template.span,
                "check_placeholder",
                &quote!(#args, #placeholder, #name),
            ));
        }
        let unused: Vec<String> = prompt
            .attrs
            .unused
            .iter()
            .flatten()
            .map(syn::LitStr::value)
            .collect();
        if has_flatten(&prompt.params) && !unused.is_empty() {
            checks.push(const_check(
                template.span,
                "check_unused_names",
                &quote!(#args, &[#(#unused),*], #name),
            ));
        }
        checks.push(const_check(
            template.span,
            "check_used",
            &quote!(#args, &[#(#placeholders),*], &[#(#unused),*], #name),
        ));
        if let Some(path) = &template.file {
            // Makes the build depend on the file, so an edit rebuilds it.
            let path = path.to_string_lossy();
            checks.push(quote!(
                const _: &str = ::core::include_str!(#path);
            ));
        }
    }
    quote!(#(#checks)*)
}
