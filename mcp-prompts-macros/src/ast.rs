//! The models of a `#[prompt]` function and a `#[derive(PromptArgs)]`
//! struct, borrowed from syn.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, LitStr, Pat, Signature, Type, Visibility};

use crate::attr::{self, ArgAttrs, PromptAttrs};
use crate::docs;
use crate::errors::Errors;

/// A `#[prompt]` function. Template prompts are declared without a body.
pub struct Prompt<'a> {
    pub attrs_of_fn: &'a [Attribute],
    pub vis: &'a Visibility,
    pub sig: &'a Signature,
    /// The body's span; `None` for a declaration ending in `;`.
    pub body: Option<Span>,
    pub attrs: PromptAttrs,
    pub doc: Option<String>,
    pub params: Vec<Param<'a>>,
}

/// A prompt function's parameter or an argument struct's field.
pub struct Param<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// `ty`'s span, computed once: syn finds it by walking the type's
    /// tokens, and generated code uses it many times.
    pub ty_span: Span,
    pub attrs: ArgAttrs,
    pub doc: Option<String>,
}

impl<'a> Prompt<'a> {
    /// Builds the model, collecting every per-parameter problem.
    pub fn new(
        attrs_of_fn: &'a [Attribute],
        vis: &'a Visibility,
        sig: &'a Signature,
        body: Option<Span>,
        attrs: syn::Result<PromptAttrs>,
    ) -> syn::Result<Self> {
        let mut errors = Errors::default();
        let attrs = attrs.unwrap_or_else(|err| {
            errors.push(err);
            PromptAttrs::default()
        });
        let mut params = Vec::new();
        for input in &sig.inputs {
            match input {
                FnArg::Receiver(receiver) => errors.push(syn::Error::new(
                    receiver.span(),
                    "`#[prompt]` functions cannot take `self`",
                )),
                FnArg::Typed(typed) if typed.attrs.iter().any(is_cfg) => {
                    let attr = typed.attrs.iter().find(|a| is_cfg(a));
                    errors.push(syn::Error::new(
                        attr.map_or_else(|| typed.span(), Spanned::span),
                        "`#[cfg]` cannot be used on a `#[prompt]` parameter: the argument would be declared either way; put `#[cfg]` on two versions of the prompt instead",
                    ));
                }
                FnArg::Typed(typed) => match &*typed.pat {
                    Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => {
                        params.push(Param::new(&pat.ident, &typed.ty, &typed.attrs, &mut errors));
                    }
                    pat => errors.push(syn::Error::new(
                        pat.span(),
                        "`#[prompt]` parameters must be plain identifiers, which name the arguments",
                    )),
                },
            }
        }
        errors.into_result()?;
        Ok(Self {
            attrs_of_fn,
            vis,
            sig,
            body,
            attrs,
            doc: docs::text(attrs_of_fn),
            params,
        })
    }

    /// The prompt's name and the token a bad name is reported on.
    pub fn name(&self) -> (String, Span) {
        match &self.attrs.name {
            Some(lit) => (lit.value(), lit.span()),
            None => (unraw(&self.sig.ident), self.sig.ident.span()),
        }
    }

    pub fn description(&self) -> Option<String> {
        lit_or_doc(self.attrs.description.as_ref(), self.doc.as_ref())
    }

    /// The template literal (inline or the file's path), if any.
    pub fn template_lit(&self) -> Option<&LitStr> {
        self.attrs
            .template
            .as_ref()
            .or(self.attrs.template_file.as_ref())
    }
}

impl<'a> Param<'a> {
    pub fn new(ident: &'a Ident, ty: &'a Type, attrs: &[Attribute], errors: &mut Errors) -> Self {
        let mut arg_attrs = ArgAttrs::default();
        for a in attrs.iter().filter(|a| a.path().is_ident(attr::ARG)) {
            attr::parse_arg(a, &mut arg_attrs, errors);
        }
        Self {
            ident,
            ty,
            ty_span: ty.span(),
            attrs: arg_attrs,
            doc: docs::text(attrs),
        }
    }

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

    pub fn is_flatten(&self) -> bool {
        self.attrs.flatten.is_some()
    }
}

fn is_cfg(attr: &Attribute) -> bool {
    attr.path().is_ident("cfg") || attr.path().is_ident("cfg_attr")
}

fn lit_or_doc(lit: Option<&LitStr>, doc: Option<&String>) -> Option<String> {
    lit.map(LitStr::value).or_else(|| doc.cloned())
}

pub fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    match name.strip_prefix("r#") {
        Some(stripped) => stripped.to_owned(),
        None => name,
    }
}

/// Whether any parameter is a flattened struct.
pub fn has_flatten(params: &[Param<'_>]) -> bool {
    params.iter().any(Param::is_flatten)
}
