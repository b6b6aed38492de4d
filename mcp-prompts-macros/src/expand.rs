//! Code generation for `#[prompt]`. Nothing here can fail: every rule was
//! checked before.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ReturnType, Visibility};

use crate::arglist;
use crate::ast::Prompt;
use crate::item::PromptItem;
use crate::paths::{check_stmt, const_checks, option, private, private_at, public};
use crate::template::Template;

/// The function (unless a template stands for it), then its handle: a
/// struct of the same name (structs and functions live in different
/// namespaces) whose impl holds the name and the definition with the glue
/// in it (with `builders`, also the typed builder's setters and its
/// conversion into a `GetPrompt`); the compile-time checks; the
/// registration.
pub fn prompt(
    prompt: &Prompt<'_>,
    func: &PromptItem,
    template: Option<&Template>,
    builders: bool,
) -> TokenStream {
    let private = private();
    let ident = &prompt.sig.ident;
    let func = func.user_fn();
    let (name, _) = prompt.name();
    let definition = definition(prompt, template);
    let setters = builders.then(|| arglist::setters(&prompt.params, prompt.vis));
    let cfgs: Vec<_> = cfgs(prompt).collect();
    let handle = handle(
        prompt.vis,
        ident,
        &name,
        &definition,
        setters.as_ref(),
        &cfgs,
    );
    let default_checks = arglist::default_checks(&prompt.params);
    let checks = const_checks(&checks(prompt, template));
    let checks = if cfgs.is_empty() {
        quote!(#default_checks #checks)
    } else {
        // One item the `#[cfg]`s can apply to.
        quote! {
            #(#cfgs)*
            const _: () = { #default_checks #checks };
        }
    };
    quote! {
        #func
        #handle
        #checks
        #(#cfgs)*
        #private::inventory::submit! {
            #private::Registration(#ident::PROMPT)
        }
    }
}

/// After an error, a handle whose definition can never be served, so that
/// uses of the handle elsewhere do not add errors of their own.
pub fn placeholder_handle(
    vis: &Visibility,
    ident: &syn::Ident,
    name: &str,
    builders: bool,
) -> TokenStream {
    let private = private();
    let definition = quote!(#private::placeholder_def(#name));
    let setters = builders.then(TokenStream::new);
    handle(vis, ident, name, &definition, setters.as_ref(), &[])
}

/// The handle struct `ident`: `ident::NAME` and `ident::PROMPT` (a
/// `static` holding `definition`, so that its address identifies the
/// prompt). With `setters` (feature `builders`), the struct is also the
/// typed builder `ident::args()` starts.
fn handle(
    vis: &Visibility,
    ident: &syn::Ident,
    name: &str,
    definition: &TokenStream,
    setters: Option<&TokenStream>,
    cfgs: &[&syn::Attribute],
) -> TokenStream {
    let (prompt_def, get_prompt) = (public("PromptDef"), public("GetPrompt"));
    let (doc, fields, builder, from) = match setters {
        None => (
            format!("The `{name}` prompt's handle: its name and its definition."),
            // Braced, so the struct has no constructor in the value
            // namespace, where the function is.
            quote!({}),
            TokenStream::new(),
            TokenStream::new(),
        ),
        Some(setters) => (
            format!(
                "The `{name}` prompt's handle: its name, its definition, and a typed builder of a `prompts/get` request for it."
            ),
            quote!({ request: #get_prompt, }),
            quote! {
                /// Starts a `prompts/get` request for this prompt; each argument
                /// has a setter that takes its own type or the text a client
                /// would send.
                #[must_use]
                pub fn args() -> Self {
                    Self { request: #get_prompt::new(#name) }
                }

                #setters
            },
            quote! {
                #(#cfgs)*
                impl ::core::convert::From<#ident> for #get_prompt {
                    fn from(args: #ident) -> Self {
                        args.request
                    }
                }
            },
        ),
    };
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #(#cfgs)*
        #vis struct #ident #fields

        // A parameter's type may be less visible than the prompt.
        #[allow(dead_code, private_bounds, private_interfaces)]
        #(#cfgs)*
        impl #ident {
            /// The prompt's name, as clients know it.
            pub const NAME: &'static str = #name;

            /// The prompt's definition, for
            /// [`Server::prompts`](::mcp_prompts::Server::prompts) and
            /// [`catalog!`](::mcp_prompts::catalog!).
            pub const PROMPT: &'static #prompt_def = {
                static PROMPT: #prompt_def = #definition;
                &PROMPT
            };

            #builder
        }

        #from
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

/// The glue, a closure the definition holds as a function pointer: one
/// call of the runtime's generic glue for this many parameters, given each
/// parameter's type (and whether it is flattened) and the return type, or
/// the template rendered once every argument has been checked.
fn glue(prompt: &Prompt<'_>, template: Option<&Template>) -> TokenStream {
    let private = private();
    if let Some(template) = template {
        return template_glue(prompt, template);
    }
    let sig = prompt.sig;
    let ident = &sig.ident;
    let (output, span) = match &sig.output {
        ReturnType::Type(_, ty) => (quote!(#ty), ty.span()),
        ReturnType::Default => (quote!(()), ident.span()),
    };
    // Spanned on the return type: an unsupported one is reported there.
    let finish = match sig.asyncness {
        Some(_) => quote_spanned!(span=> #private::pending::<#output, _>),
        None => quote_spanned!(span=> #private::ready::<#output>),
    };
    let call = syn::Ident::new(&format!("call{}", prompt.params.len()), Span::call_site());
    // Each spanned on the parameter's type: an unsupported one is
    // reported there.
    let params = prompt.params.iter().map(|param| {
        let (ty, private) = (param.ty, private_at(param.ty_span));
        let how = if param.is_flatten() { "Flat" } else { "Plain" };
        let how = syn::Ident::new(how, param.ty_span);
        quote_spanned!(param.ty_span=> #ty, #private::#how)
    });
    quote! {
        |__input| #private::#call::<#(#params,)* _>(__input, #ident, #finish)
    }
}

/// A template prompt's glue: binds every argument, to check it as the
/// function's parameters would be, then renders the template.
fn template_glue(prompt: &Prompt<'_>, template: &Template) -> TokenStream {
    let private = private();
    let binds = prompt.params.iter().enumerate().map(|(index, param)| {
        let position = arglist::position(&prompt.params, index);
        arglist::bind(param, &quote!(#private::arg(__input, #position)))
    });
    let template = template.to_tokens(&private);
    quote! {
        |__input: &#private::Input<'_>| -> ::core::result::Result<#private::Invocation, #private::Error> {
            let _ = (#(#binds,)*);
            ::core::result::Result::Ok(#private::ready::<::std::vec::Vec<#private::Message>>(
                #private::Template::render(&#template, __input),
            ))
        }
    }
}

/// The definition, built where the user's types resolve.
fn definition(prompt: &Prompt<'_>, template: Option<&Template>) -> TokenStream {
    let private = private();
    let ident = &prompt.sig.ident;
    let (name, _) = prompt.name();
    let title = option(prompt.attrs.title.as_ref().map(syn::LitStr::value));
    let description = option(prompt.description());
    let args = arglist::defs(&prompt.params);
    let glue = glue(prompt, template);
    let line = quote_spanned!(ident.span()=> ::core::line!());
    quote! {
        #private::PromptDef {
            name: #name,
            title: #title,
            description: #description,
            params: #args,
            invoke: #glue,
            file: ::core::file!(),
            line: #line,
        }
    }
}

/// Checks the macro cannot make itself, as they need the flattened structs'
/// argument names or which parameters are injected, which only the
/// compiler knows. Evaluated in one const item, each reported on the
/// user's tokens.
fn checks(prompt: &Prompt<'_>, template: Option<&Template>) -> Vec<TokenStream> {
    let ident = &prompt.sig.ident;
    let (name, _) = prompt.name();
    let args = quote!(#ident::PROMPT.params);
    let mut checks = Vec::new();
    let flatten = prompt.params.iter().find_map(|p| p.attrs.flatten);
    if let Some(flatten) = flatten {
        let owner = format!("prompt `{name}`");
        checks.push(check_stmt(flatten, "check_unique", &quote!(#args, #owner)));
    }
    let Some(template) = template else {
        return checks;
    };
    let placeholders = template.placeholders();
    let unused: Vec<String> = prompt
        .attrs
        .unused
        .iter()
        .flatten()
        .map(syn::LitStr::value)
        .collect();
    // Without flattened structs, validation has checked these names.
    if flatten.is_some() {
        for placeholder in &placeholders {
            checks.push(check_stmt(
                template.span,
                "check_placeholder",
                &quote!(#args, #placeholder, #name),
            ));
        }
        if !unused.is_empty() {
            checks.push(check_stmt(
                template.span,
                "check_unused_names",
                &quote!(#args, &[#(#unused),*], #name),
            ));
        }
    }
    checks.push(check_stmt(
        template.span,
        "check_used",
        &quote!(#args, &[#(#placeholders),*], &[#(#unused),*], #name),
    ));
    if let Some(path) = &template.file {
        // Makes the build depend on the file, so an edit rebuilds it.
        let path = path.to_string_lossy();
        checks.push(quote!(
            let _: &str = ::core::include_str!(#path);
        ));
    }
    checks
}
