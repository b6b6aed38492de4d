//! `#[derive(PromptArgs)]`: a struct whose fields are prompt arguments.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::arglist;
use crate::ast::Param;
use crate::ast::has_flatten;
use crate::errors::Errors;
use crate::paths::{check_stmt, const_checks, private};
use crate::valid;

/// Expands `#[derive(PromptArgs)]`; `builders` gives the struct a typed
/// builder for the prompts that flatten it.
pub fn expand(input: TokenStream, builders: bool) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(err) => return err.into_compile_error(),
    };
    let mut errors = Errors::default();
    let fields = match target_fields(&input) {
        Ok(fields) => fields,
        Err(err) => {
            // Still an impl, so that prompts flattening the type add no
            // errors of their own.
            let mut out = placeholder_impl(&input);
            out.extend(err.into_compile_error());
            return out;
        }
    };
    let params: Vec<Param<'_>> = fields
        .named
        .iter()
        .filter_map(|field| {
            let ident = field.ident.as_ref()?;
            Some(Param::new(ident, &field.ty, &field.attrs, &mut errors))
        })
        .collect();
    valid::check_params(&params, "`PromptArgs` fields", &mut errors);
    // A bad attribute still yields the impl, built from what did parse.
    let mut out = args_impl(&input, &params, builders);
    if let Err(err) = errors.into_result() {
        out.extend(err.into_compile_error());
    }
    out
}

/// The named fields of a plain struct; anything else is a spanned error.
fn target_fields(input: &DeriveInput) -> syn::Result<&syn::FieldsNamed> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            input.generics.span(),
            "`PromptArgs` cannot be derived for a generic struct: every argument needs one concrete type",
        ));
    }
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(fields) => Ok(fields),
            Fields::Unnamed(fields) => Err(syn::Error::new(
                fields.span(),
                "`PromptArgs` needs named fields, which name the arguments; a tuple struct has none",
            )),
            Fields::Unit => Err(syn::Error::new(
                input.ident.span(),
                "`PromptArgs` needs named fields, which name the arguments; a unit struct has none",
            )),
        },
        Data::Enum(data) => Err(syn::Error::new(
            data.enum_token.span(),
            "`PromptArgs` can only be derived for a struct with named fields; for a choice of values, use `#[derive(PromptArg)]` on the enum",
        )),
        Data::Union(data) => Err(syn::Error::new(
            data.union_token.span(),
            "`PromptArgs` can only be derived for a struct with named fields, not a union",
        )),
    }
}

fn args_impl(input: &DeriveInput, params: &[Param<'_>], builders: bool) -> TokenStream {
    let private = private();
    let ident = &input.ident;
    let args = arglist::defs(params);
    let fields = params.iter().enumerate().map(|(index, param)| {
        let field = param.ident;
        let position = arglist::position(params, index);
        let bind = arglist::bind(param, &quote!(#private::field::<Self>(#position)));
        quote!(#field: #bind)
    });
    let field_names = params.iter().map(|param| param.ident);
    let value_checks = arglist::value_checks(params);
    let mut checks = Vec::new();
    if has_flatten(params) {
        let span = params
            .iter()
            .find_map(|p| p.attrs.flatten)
            .unwrap_or(ident.span());
        let owner = format!("struct `{ident}`");
        checks.push(check_stmt(
            span,
            "check_unique",
            &quote!(<#ident as #private::PromptArgs>::ARGS, #owner),
        ));
    }
    let checks = const_checks(&checks);
    let (builder, builder_type) = if builders {
        let setters = arglist::setters(params, &input.vis);
        let builder = quote! {
            /// The typed builder of these arguments.
            pub struct __PromptArgsBuilder {
                request: #private::GetPrompt,
            }

            impl #private::ArgsBuilder for __PromptArgsBuilder {
                fn from_request(request: #private::GetPrompt) -> Self {
                    Self { request }
                }
                fn into_request(self) -> #private::GetPrompt {
                    self.request
                }
            }

            // A field's type may be less visible than the struct.
            #[allow(dead_code, private_bounds, private_interfaces)]
            impl __PromptArgsBuilder {
                #setters
            }
        };
        (builder, quote!(__PromptArgsBuilder))
    } else {
        (TokenStream::new(), quote!(#private::GetPrompt))
    };
    quote! {
        const _: () = {
            #value_checks
            #checks
            #builder

            // A template prompt reads the fields by name, from the
            // request, never from the struct: without this, the compiler
            // would call them unused.
            #[allow(dead_code)]
            fn __read_fields(args: &#ident) {
                let _ = (#(&args.#field_names,)*);
            }

            impl #private::PromptArgs for #ident {
                const ARGS: &'static [#private::ArgDef] = &#args;
                type Builder = #builder_type;

                fn bind_args(
                    __input: &#private::Input<'_>,
                ) -> ::core::result::Result<Self, #private::Error> {
                    ::core::result::Result::Ok(Self { #(#fields),* })
                }
            }

        };
    }
}

fn placeholder_impl(input: &DeriveInput) -> TokenStream {
    let private = private();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics #private::PromptArgs for #ident #ty_generics #where_clause {
            const ARGS: &'static [#private::ArgDef] = &[];
            type Builder = #private::GetPrompt;

            fn bind_args(
                _: &#private::Input<'_>,
            ) -> ::core::result::Result<Self, #private::Error> {
                ::core::result::Result::Err(#private::Error::internal("invalid `PromptArgs` derive"))
            }
        }
    }
}
