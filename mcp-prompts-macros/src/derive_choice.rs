//! `#[derive(PromptArg)]` on an enum of unit variants: a fixed choice of
//! values that parses, lists and completes itself.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr};

use crate::ast::unraw;
use crate::attr::{Errors, unknown_key};
use crate::case::Case;
use crate::expand::{private, private_alias};

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
        Ok(variants) => choice_impl(&input, &variants),
        Err(err) => err.into_compile_error(),
    }
}

fn model(input: &DeriveInput) -> syn::Result<Vec<Variant<'_>>> {
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
    let case = rename_all(input, &mut errors);
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
    errors.finish()?;
    Ok(variants)
}

fn rename_all(input: &DeriveInput, errors: &mut Errors) -> Case {
    let mut case = Case::Snake;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident(ATTR)) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename_all") {
                let lit: LitStr = meta.value()?.parse()?;
                case = Case::parse(&lit.value(), lit.span())?;
                Ok(())
            } else {
                unknown_key(
                    &meta,
                    "unknown `#[prompt_arg]` argument `{}` on an enum; expected `rename_all`",
                )
            }
        });
        errors.push_result(result);
    }
    case
}

fn variant_attrs(attrs: &[syn::Attribute], errors: &mut Errors) -> (Option<LitStr>, Vec<LitStr>) {
    let mut rename: Option<LitStr> = None;
    let mut aliases = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(ATTR)) {
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let lit: LitStr = meta.value()?.parse()?;
                if rename.is_some() {
                    return Err(meta.error("duplicate `rename` in `#[prompt_arg(...)]`"));
                }
                rename = Some(lit);
                Ok(())
            } else if meta.path.is_ident("alias") {
                aliases.push(meta.value()?.parse()?);
                Ok(())
            } else {
                unknown_key(
                    &meta,
                    "unknown `#[prompt_arg]` argument `{}` on a variant; expected `rename` or `alias`",
                )
            }
        });
        errors.push_result(result);
    }
    (rename, aliases)
}

fn choice_impl(input: &DeriveInput, variants: &[Variant<'_>]) -> TokenStream {
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
    let display_arms = variants.iter().map(|variant| {
        let (v, name) = (variant.ident, &variant.name);
        quote!(Self::#v => #name,)
    });
    let alias = private_alias();
    quote! {
        const _: () = {
            #alias
            const NAMES: &[&str] = &[#(#names),*];
            const ACCEPTED: &[(&str, usize)] = &[#(#accepted),*];

            impl #private::PromptArg for #ident {
                const EXPECTED: &'static str = #expected;
                const CHOICES: &'static [&'static str] = NAMES;

                fn parse_arg(value: &str) -> ::core::result::Result<Self, ::std::string::String> {
                    #parse
                }

                fn canonical(value: &str) -> ::core::option::Option<&'static str> {
                    #private::choice(value, ACCEPTED).ok().map(|index| NAMES[index])
                }
            }

            /// Writes the choice's canonical value.
            impl ::core::fmt::Display for #ident {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(match self {
                        #(#display_arms)*
                    })
                }
            }
        };
    }
}
