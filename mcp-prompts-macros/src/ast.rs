//! The model of a `#[prompt]` function, borrowed from syn.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{FnArg, Ident, ItemFn, LitStr, Pat, Type};

use crate::attr::{self, ArgAttrs, Errors, PromptAttrs};
use crate::docs;

pub struct Prompt<'a> {
    pub func: &'a ItemFn,
    pub attrs: PromptAttrs,
    pub doc: Option<String>,
    pub params: Vec<Param<'a>>,
}

pub struct Param<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub attrs: ArgAttrs,
    pub doc: Option<String>,
}

impl<'a> Prompt<'a> {
    /// Builds the model, collecting every per-parameter problem.
    pub fn from_syn(func: &'a ItemFn, attrs: syn::Result<PromptAttrs>) -> syn::Result<Self> {
        let mut errors = Errors::default();
        let attrs = attrs.unwrap_or_else(|err| {
            errors.push(err);
            PromptAttrs::default()
        });
        let mut params = Vec::new();
        for input in &func.sig.inputs {
            match input {
                FnArg::Receiver(receiver) => errors.push(syn::Error::new(
                    receiver.span(),
                    "`#[prompt]` functions cannot take `self`",
                )),
                FnArg::Typed(typed) => {
                    let mut arg_attrs = ArgAttrs::default();
                    for a in typed.attrs.iter().filter(|a| a.path().is_ident(attr::ARG)) {
                        attr::parse_arg(a, &mut arg_attrs, &mut errors);
                    }
                    match &*typed.pat {
                        Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => {
                            params.push(Param {
                                ident: &pat.ident,
                                ty: &typed.ty,
                                attrs: arg_attrs,
                                doc: docs::text(&typed.attrs),
                            });
                        }
                        pat => errors.push(syn::Error::new(
                            pat.span(),
                            "`#[prompt]` parameters must be plain identifiers, which name the arguments",
                        )),
                    }
                }
            }
        }
        errors.finish()?;
        Ok(Self {
            func,
            attrs,
            doc: docs::text(&func.attrs),
            params,
        })
    }

    /// The prompt's name and the token a bad name is reported on.
    pub fn name(&self) -> (String, Span) {
        match &self.attrs.name {
            Some(lit) => (lit.value(), lit.span()),
            None => (unraw(&self.func.sig.ident), self.func.sig.ident.span()),
        }
    }

    pub fn description(&self) -> Option<String> {
        lit_or_doc(self.attrs.description.as_ref(), self.doc.as_ref())
    }
}

impl Param<'_> {
    /// The argument's name and the token a bad name is reported on.
    pub fn name(&self) -> (String, Span) {
        match &self.attrs.name {
            Some(lit) => (lit.value(), lit.span()),
            None => (unraw(self.ident), self.ident.span()),
        }
    }

    pub fn description(&self) -> Option<String> {
        lit_or_doc(self.attrs.description.as_ref(), self.doc.as_ref())
    }
}

fn lit_or_doc(lit: Option<&LitStr>, doc: Option<&String>) -> Option<String> {
    lit.map(LitStr::value).or_else(|| doc.cloned())
}

fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    match name.strip_prefix("r#") {
        Some(stripped) => stripped.to_owned(),
        None => name,
    }
}
