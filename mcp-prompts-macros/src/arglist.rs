//! Code for a list of arguments, shared by `#[prompt]` parameters and
//! `#[derive(PromptArgs)]` fields: the `&'static [ArgDef]` the runtime reads,
//! the expression binding each one, and the typed builder's setters.

use std::fmt::Write as _;

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::Visibility;
use syn::spanned::Spanned;

use crate::ast::Param;
use crate::attr::CompleteAttr;
use crate::paths::{PRIVATE, code, const_check, option_code, private, private_at, str_code};

/// The arguments as an array of `ArgDef` (`&` before it makes the
/// `&'static [ArgDef]` the runtime reads). Flattened structs are spliced
/// in at compile time, so the runtime sees one flat list.
pub fn defs(params: &[Param<'_>]) -> TokenStream {
    let private = private();
    if !params.iter().any(Param::is_flatten) {
        let defs = params.iter().enumerate().map(|(index, param)| {
            let separator = if index == 0 { "" } else { "," };
            arg_def(param, separator)
        });
        let list = Group::new(Delimiter::Bracket, defs.collect());
        return TokenStream::from(TokenTree::Group(list));
    }
    // Runs of plain parameters become one part each; each flattened struct
    // contributes its own list.
    let mut parts = Vec::new();
    let mut run = Vec::new();
    for param in params {
        if param.is_flatten() {
            if !run.is_empty() {
                parts.push(quote!(&[#(#run),*]));
                run.clear();
            }
            parts.push(flattened_args(param));
        } else {
            run.push(arg_def(param, ""));
        }
    }
    if !run.is_empty() {
        parts.push(quote!(&[#(#run),*]));
    }
    // The parts are written twice, rather than named by a const item: one
    // item fewer per prompt.
    quote! {
        #private::splice::<{ #private::arg_count(&[#(#parts),*]) }>(&[#(#parts),*])
    }
}

/// The position of parameter `index`'s definition in the flat list.
pub fn position(params: &[Param<'_>], index: usize) -> TokenStream {
    let before = &params[..index];
    let plain = before.iter().filter(|p| !p.is_flatten()).count();
    let flattened = before.iter().filter(|p| p.is_flatten()).map(|p| {
        let args = flattened_args(p);
        quote_spanned!(p.ty_span=> #args.len())
    });
    quote!(#plain #(+ #flattened)*)
}

/// The expression producing parameter `param`'s value; `def` is its
/// `&'static ArgDef`. Spanned on the user's type, so an unsupported type
/// is reported there, once.
pub fn bind(param: &Param<'_>, def: &TokenStream) -> TokenStream {
    let ty = param.ty;
    let private = private_at(param.ty_span);
    if param.is_flatten() {
        let bind = quote_spanned!(param.ty_span=> <#ty as #private::PromptArgs>::bind_args);
        quote!(#bind(__input)?)
    } else {
        let bind = quote_spanned!(param.ty_span=> <#ty as #private::PromptParam>::bind);
        quote!(#bind(__input, #def)?)
    }
}

/// The typed builder's setters, for a struct whose `request` field is the
/// `GetPrompt` being built. Each takes `impl Trait`, so it is generic and
/// costs no code generation unless it is called.
/// They take the visibility of the prompt or struct they belong to, which
/// their parameter types may not exceed.
pub fn setters(params: &[Param<'_>], vis: &Visibility) -> TokenStream {
    let setters = params.iter().map(|param| {
        let ident = param.ident;
        let ty = param.ty;
        let private = private_at(param.ty_span);
        if param.is_flatten() {
            let doc = format!("Sets the arguments of the flattened `{}`.", quote!(#ty));
            // Spanned on the type: if it is not a `PromptArgs` struct, every
            // use here repeats the error at the binding, and the compiler
            // shows it once.
            quote_spanned! {param.ty_span=>
                #[doc = #doc]
                #[must_use]
                #vis fn #ident(
                    mut self,
                    fill: impl ::core::ops::FnOnce(
                        <#ty as #private::PromptArgs>::Builder,
                    ) -> <#ty as #private::PromptArgs>::Builder,
                ) -> Self {
                    #private::fill::<#ty>(&mut self.request, fill);
                    self
                }
            }
        } else {
            let (name, _) = param.name();
            let doc = match param.description() {
                Some(description) => format!("Sets `{name}`: {description}"),
                None => format!("Sets `{name}`."),
            };
            // No bound on the parameter's type here: an unsupported type is
            // reported once, where it is bound.
            quote! {
                #[doc = #doc]
                #[must_use]
                #vis fn #ident(mut self, value: impl #private::IntoArgText<#ty>) -> Self {
                    #private::set::<#ty>(&mut self.request, #name, value);
                    self
                }
            }
        }
    });
    quote!(#(#setters)*)
}

/// Checks of every default and example against its parameter's type,
/// evaluated when the crate compiles and reported on the literal: one
/// `const` item each, so that every bad value is reported, not only the
/// first.
pub fn value_checks(params: &[Param<'_>]) -> TokenStream {
    params
        .iter()
        .flat_map(|param| {
            let ty = param.ty;
            let private = private_at(param.ty_span);
            let (name, _) = param.name();
            let written = [
                (param.attrs.default.as_ref(), "check_default"),
                (param.attrs.example.as_ref(), "check_example"),
            ];
            let mut checks: Vec<TokenStream> = written
                .into_iter()
                .filter_map(|(value, check)| {
                    let value = value?;
                    let text = &value.text;
                    Some(const_check(
                        value.span,
                        check,
                        &quote!(<#ty as #private::PromptParam>::TYPE, #text, #name),
                    ))
                })
                .collect();
            // A range's bounds must be numbers of the argument's type.
            if let Some(range) = &param.attrs.range {
                checks.push(const_check(
                    range.span,
                    "check_range_type",
                    &quote!(<#ty as #private::PromptParam>::TYPE, #name),
                ));
                for (bound, span) in [&range.min, &range.max].into_iter().flatten() {
                    checks.push(const_check(
                        *span,
                        "check_range_bound",
                        &quote!(<#ty as #private::PromptParam>::TYPE, #bound, #name),
                    ));
                }
            }
            checks
        })
        .collect()
}

fn flattened_args(param: &Param<'_>) -> TokenStream {
    let ty = param.ty;
    let private = private_at(param.ty_span);
    quote_spanned!(param.ty_span=> <#ty as #private::PromptArgs>::ARGS)
}

/// Parameter `param`'s `ArgDef`, after `separator`: text but for a
/// completion function's path and the type, which come last, spanned on
/// the user's tokens.
fn arg_def(param: &Param<'_>, separator: &str) -> TokenStream {
    let ty = param.ty;
    let private = private_at(param.ty_span);
    let (name, _) = param.name();
    let title = param.attrs.title.as_ref().map(syn::LitStr::value);
    let default = param.attrs.default.as_ref().map(|d| d.text.as_str());
    let example = param.attrs.example.as_ref().map(|e| e.text.as_str());
    let range = match &param.attrs.range {
        None => format!("{PRIVATE}::None"),
        Some(range) => format!(
            "{PRIVATE}::Some({PRIVATE}::ArgRange {{ min: {}, max: {} }})",
            option_code(range.min.as_ref().map(|(t, _)| t.as_str())),
            option_code(range.max.as_ref().map(|(t, _)| t.as_str())),
        ),
    };
    let mut text = format!(
        "name: {}, title: {}, description: {}, default: {}, example: {}, range: {range}, complete: ",
        str_code(&name),
        str_code(title.as_deref().unwrap_or_default()),
        str_code(param.description().as_deref().unwrap_or_default()),
        option_code(default),
        str_code(example.unwrap_or_default()),
    );
    let mut fields = TokenStream::new();
    match &param.attrs.complete {
        None => write!(text, "{PRIVATE}::None").expect("writing to a string"),
        Some(CompleteAttr::List(values, _)) => {
            let values: Vec<String> = values.iter().map(|v| str_code(&v.value())).collect();
            write!(
                text,
                "{PRIVATE}::Some({PRIVATE}::Completer::List(&[{}]))",
                values.join(", ")
            )
            .expect("writing to a string");
        }
        Some(CompleteAttr::Path(path)) => {
            // Spanned on the path: something that cannot complete is
            // reported there. The closure's parameter is one identifier,
            // so it resolves even when the path comes from a macro.
            let input = syn::Ident::new("__mcp_input", Span::call_site());
            let private = private_at(path.span());
            let call =
                quote_spanned!(path.span()=> #private::CompleteWith::complete_with(#path, #input));
            fields.extend([
                code(&std::mem::take(&mut text)),
                quote!(#private::Some(#private::Completer::Call(|#input| #call))),
            ]);
        }
    }
    text.push_str(", ty: ");
    fields.extend([
        code(&text),
        quote_spanned!(param.ty_span=> <#ty as #private::PromptParam>::TYPE),
    ]);
    let mut def = code(&format!("{separator} {PRIVATE}::ArgDef"));
    def.extend([TokenTree::Group(Group::new(Delimiter::Brace, fields))]);
    def
}
