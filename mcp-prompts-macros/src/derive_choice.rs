//! `#[derive(PromptArg)]` on an enum of unit variants: a fixed choice of
//! values that parses, lists and completes itself.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr};

use crate::ast::unraw;
use crate::case::Case;
use crate::errors::Errors;
use crate::nested::unknown_key;
use crate::paths::private;

const ATTR: &str = "prompt_arg";

struct Variant<'a> {
    ident: &'a syn::Ident,
    /// The canonical value: renamed, or the name under `rename_all`.
    name: String,
    /// Every value accepted, canonical first, with where each was written.
    accepted: Vec<(String, Span)>,
}

pub fn expand(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(err) => return err.into_compile_error(),
    };
    match model(&input) {
        Ok((variants, display)) => choice_impl(&input, &variants, display),
        Err(err) => {
            let mut out = err.into_compile_error();
            out.extend(placeholder_impl(&input));
            out
        }
    }
}

/// After an error, an implementation that parses nothing, so that the
/// enum's uses as a prompt argument add no errors of their own.
fn placeholder_impl(input: &DeriveInput) -> TokenStream {
    let private = private();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        const _: () = {
            impl #impl_generics #private::PromptArg for #ident #ty_generics #where_clause {
                const EXPECTED: &'static str = "nothing: this type failed to compile";

                fn parse_arg(_: &str) -> ::core::result::Result<Self, ::std::string::String> {
                    ::core::result::Result::Err(::std::string::String::new())
                }
            }
        };
    }
}

fn model(input: &DeriveInput) -> syn::Result<(Vec<Variant<'_>>, bool)> {
    let data = match &input.data {
        Data::Enum(data) => data,
        Data::Struct(data) => {
            return Err(syn::Error::new(
                data.struct_token.span(),
                "`PromptArg` can only be derived for an enum of unit variants (a choice of values); for a struct of arguments, derive `PromptArgs`",
            ));
        }
        Data::Union(data) => {
            return Err(syn::Error::new(
                data.union_token.span(),
                "`PromptArg` can only be derived for an enum of unit variants (a choice of values)",
            ));
        }
    };
    let mut errors = Errors::default();
    if !input.generics.params.is_empty() {
        errors.push(syn::Error::new(
            input.generics.span(),
            "`PromptArg` cannot be derived for a generic enum",
        ));
    }
    if data.variants.is_empty() {
        errors.push(syn::Error::new(
            input.ident.span(),
            "`PromptArg` needs at least one variant: the values to choose from",
        ));
    }
    let EnumAttrs { case, display } = enum_attrs(input, &mut errors);
    let mut variants: Vec<Variant<'_>> = Vec::new();
    for variant in &data.variants {
        if !matches!(variant.fields, Fields::Unit) {
            errors.push(syn::Error::new(
                variant.fields.span(),
                "a `PromptArg` choice is a unit variant: it cannot carry fields",
            ));
        }
        let (rename, aliases) = variant_attrs(&variant.attrs, &mut errors);
        let (name, span) = match &rename {
            Some(lit) => (lit.value(), lit.span()),
            None => (case.apply(&unraw(&variant.ident)), variant.ident.span()),
        };
        let mut accepted = vec![(name.clone(), span)];
        accepted.extend(aliases.iter().map(|a| (a.value(), a.span())));
        for (i, (value, span)) in accepted.iter().enumerate() {
            if value.trim().is_empty() || value.trim() != value {
                errors.push(syn::Error::new(
                    *span,
                    "a choice's value must be non-empty, without spaces at either end",
                ));
            }
            let same = |(other, _): &(String, Span)| other.to_lowercase() == value.to_lowercase();
            let taken = variants.iter().flat_map(|v| &v.accepted).any(same)
                || accepted[..i].iter().any(same);
            if taken {
                errors.push(syn::Error::new(
                    *span,
                    format!("the value `{value}` is already taken by another choice (values are matched case-insensitively)"),
                ));
            }
        }
        variants.push(Variant {
            ident: &variant.ident,
            name,
            accepted,
        });
    }
    errors.into_result()?;
    Ok((variants, display))
}

/// The enum's own keys: how variants are spelled, and whether to
/// implement `Display` (not when the enum has its own).
struct EnumAttrs {
    case: Case,
    display: bool,
}

fn enum_attrs(input: &DeriveInput, errors: &mut Errors) -> EnumAttrs {
    let mut attrs = EnumAttrs {
        case: Case::Snake,
        display: true,
    };
    for attr in input.attrs.iter().filter(|a| a.path().is_ident(ATTR)) {
        // Each key's problem is kept and parsing goes on, so every one is
        // reported at once.
        let mut problems = Errors::default();
        let result = attr.parse_nested_meta(|meta| {
            let result = if meta.path.is_ident("rename_all") {
                meta.value()
                    .and_then(syn::parse::ParseBuffer::parse::<LitStr>)
                    .and_then(|lit| Case::parse(&lit.value(), lit.span()))
                    .map(|case| attrs.case = case)
            } else if meta.path.is_ident("display") {
                meta.value()
                    .and_then(syn::parse::ParseBuffer::parse::<syn::LitBool>)
                    .map(|lit| attrs.display = lit.value)
                    .map_err(|err| {
                        syn::Error::new(err.span(), "expected `display = true` or `display = false`")
                    })
            } else {
                unknown_key(
                    &meta,
                    "unknown `#[prompt_arg]` argument `{}` on an enum; expected `rename_all` or `display`",
                )
            };
            problems.push_result(result);
            Ok(())
        });
        errors.push_result(result);
        errors.push_result(problems.into_result());
    }
    attrs
}

fn variant_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> (Option<LitStr>, Vec<LitStr>) {
    let mut rename: Option<LitStr> = None;
    let mut aliases = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(ATTR)) {
        let mut problems = Errors::default();
        let result = attr.parse_nested_meta(|meta| {
            let result = if meta.path.is_ident("rename") {
                meta.value()
                    .and_then(syn::parse::ParseBuffer::parse::<LitStr>)
                    .and_then(|lit| match rename {
                        Some(_) => Err(meta.error("duplicate `rename` in `#[prompt_arg(...)]`")),
                        None => {
                            rename = Some(lit);
                            Ok(())
                        }
                    })
            } else if meta.path.is_ident("alias") {
                meta.value()
                    .and_then(syn::parse::ParseBuffer::parse::<LitStr>)
                    .map(|lit| aliases.push(lit))
            } else {
                unknown_key(
                    &meta,
                    "unknown `#[prompt_arg]` argument `{}` on a variant; expected `rename` or `alias`",
                )
            };
            problems.push_result(result);
            Ok(())
        });
        errors.push_result(result);
        errors.push_result(problems.into_result());
    }
    (rename, aliases)
}

fn choice_impl(input: &DeriveInput, variants: &[Variant<'_>], display: bool) -> TokenStream {
    let private = private();
    let ident = &input.ident;
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let expected = format!(
        "one of {}",
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let accepted = variants.iter().enumerate().flat_map(|(index, variant)| {
        variant
            .accepted
            .iter()
            .map(move |(value, _)| quote!((#value, #index)))
    });
    let parse = match variants {
        [only] => {
            let v = only.ident;
            quote!(#private::choice(value, ACCEPTED).map(|_| Self::#v))
        }
        [init @ .., last] => {
            let arms = init.iter().enumerate().map(|(index, variant)| {
                let v = variant.ident;
                quote!(#index => Self::#v,)
            });
            let last = last.ident;
            quote! {
                ::core::result::Result::Ok(match #private::choice(value, ACCEPTED)? {
                    #(#arms)*
                    _ => Self::#last,
                })
            }
        }
        [] => quote!(#private::choice(value, ACCEPTED).map(|_| unreachable!())),
    };
    let display = display.then(|| {
        let arms = variants.iter().map(|variant| {
            let (v, name) = (variant.ident, &variant.name);
            quote!(Self::#v => #name,)
        });
        quote! {
            /// Writes the choice's canonical value.
            impl ::core::fmt::Display for #ident {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(match self {
                        #(#arms)*
                    })
                }
            }
        }
    });
    quote! {
        const _: () = {
            const NAMES: &[&str] = &[#(#names),*];
            const ACCEPTED: &[(&str, usize)] = &[#(#accepted),*];

            impl #private::PromptArg for #ident {
                const EXPECTED: &'static str = #expected;
                const CHOICES: &'static [&'static str] = NAMES;
                const DEFAULT_CHECK: #private::DefaultCheck = #private::DefaultCheck::OneOf(ACCEPTED);

                fn parse_arg(value: &str) -> ::core::result::Result<Self, ::std::string::String> {
                    #parse
                }

                fn canonical(value: &str) -> ::core::option::Option<&'static str> {
                    #private::choice(value, ACCEPTED).ok().map(|index| NAMES[index])
                }
            }

            #display
        };
    }
}
