//! The quick reading of function heads against syn's: for every head it
//! reads, the same attributes, visibility and signature; every head it
//! leaves alone is one syn must read.

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::parse::Parser;
use syn::{Attribute, Signature, Visibility};

use crate::signature;

/// syn's reading of `head`, printed.
fn by_syn(head: &TokenStream) -> String {
    let parse = |input: syn::parse::ParseStream<'_>| {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        let sig: Signature = input.parse()?;
        Ok((attrs, vis, sig))
    };
    let (attrs, vis, sig) = parse.parse2(head.clone()).expect("syn reads it");
    quote!(#(#attrs)* #vis #sig).to_string()
}

/// The quick reading of `head`, printed, if it reads it.
fn quickly(head: &TokenStream) -> Option<String> {
    let trees: Vec<TokenTree> = head.clone().into_iter().collect();
    let (attrs, vis, sig) = signature::read(&trees)?;
    Some(quote!(#(#attrs)* #vis #sig).to_string())
}

#[test]
fn plain_heads_are_read_as_syn_reads_them() {
    let heads = [
        quote!(fn greet() -> String),
        quote!(#[doc = " Greet"] pub fn greet(name: String) -> String),
        quote!(pub async fn greet(#[doc = " Who"] #[arg(default = "x")] name: String, n: u32) -> Vec<Message>),
        quote!(fn f(map: HashMap<String, Vec<u8>>, g: Box<dyn Fn(u32, u32) -> u32>, t: (u8, u8),) -> Result<String, Error>),
        quote!(fn f(a: [u8; 4], b: Option<Vec<Option<String>>>) -> ::std::string::String),
        quote!(#[cfg(test)] #[must_use] fn r#type(r#match: String)),
    ];
    for head in heads {
        let quick = quickly(&head).unwrap_or_else(|| panic!("not read quickly: {head}"));
        assert_eq!(quick, by_syn(&head), "{head}");
    }
}

#[test]
fn other_heads_are_left_to_syn() {
    let heads = [
        quote!(fn f<T>(t: T)),
        quote!(fn f(t: String) where String: Clone),
        quote!(pub(crate) fn f()),
        quote!(unsafe fn f()),
        quote!(const fn f()),
        quote!(extern "C" fn f()),
        quote!(fn f(&self)),
        quote!(fn f(mut t: String)),
        quote!(fn f(_: String)),
        quote!(fn f(Self: String)),
        quote!(fn f((a, b): (u8, u8))),
        quote!(#[tokio::main] fn f()),
        quote!(#[doc = concat!("a")] fn f()),
    ];
    for head in heads {
        assert!(quickly(&head).is_none(), "read quickly: {head}");
    }
}

#[test]
fn the_parameters_parenthesis_is_found_past_generics() {
    let head: Vec<TokenTree> = quote!(fn f<F: Fn(u32) -> u32>(f: F) -> u32)
        .into_iter()
        .collect();
    let params = crate::item::params_group(&head).expect("a parameter list");
    assert_eq!(head[params].to_token_stream().to_string(), "(f : F)");
}
