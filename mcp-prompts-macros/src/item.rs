//! The item `#[prompt]` is applied to, parsed no further than needed: the
//! tokens before the body are parsed, the body is kept as written, unread.
//! Reading a long body only to print it back would cost compile time for
//! nothing, and so would printing the signature back from its syntax tree.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Signature, Token, Visibility};

use crate::attr::ARG;
use crate::docs::DOC;
use crate::paths::code;
use crate::signature;

/// A function, or a declaration ending in `;` (a template prompt).
pub struct PromptItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub sig: Signature,
    /// The body, as written; `None` for a declaration.
    pub body: Option<Group>,
    /// The tokens before the body (or the `;`), as written.
    head: Vec<TokenTree>,
}

impl PromptItem {
    /// Parses `item`: its attributes, visibility and signature, and the
    /// body (a brace group, last) or the `;` ending a declaration.
    pub fn parse(item: TokenStream) -> syn::Result<Self> {
        let mut head: Vec<TokenTree> = item.into_iter().collect();
        let body = match head.pop() {
            Some(TokenTree::Group(body)) if body.delimiter() == Delimiter::Brace => Some(body),
            Some(last) => {
                head.push(last);
                None
            }
            None => None,
        };
        let has_body = body.is_some();
        let ends_in_semicolon =
            matches!(head.last(), Some(TokenTree::Punct(p)) if p.as_char() == ';');
        let quick = match (has_body, ends_in_semicolon) {
            (true, _) => signature::read(&head),
            (false, true) => signature::read(&head[..head.len() - 1]),
            (false, false) => None,
        };
        let parse = |input: ParseStream<'_>| {
            let attrs = input.call(Attribute::parse_outer)?;
            let vis = input.parse()?;
            let sig = input.parse()?;
            if !has_body {
                input.parse::<Token![;]>()?;
            }
            if !input.is_empty() {
                return Err(input.error("unexpected tokens after the function"));
            }
            Ok((attrs, vis, sig))
        };
        let (attrs, vis, sig) = match quick {
            Some(read) => read,
            None => parse.parse2(head.iter().cloned().collect())?,
        };
        if !has_body {
            head.pop();
        }
        Ok(Self {
            attrs,
            vis,
            sig,
            body,
            head,
        })
    }

    /// The function as written, minus the `#[arg]` and doc attributes on
    /// its parameters, which Rust does not allow there. Parameters must be
    /// owned to be bound from a request, so clippy's advice to borrow them
    /// is silenced (only under clippy: an `#[allow]` the compiler reads on
    /// every prompt costs check time). Nothing for a declaration.
    /// `before`, source text, is lexed with the function's first attribute.
    pub fn user_fn(&self, before: &str) -> TokenStream {
        let Some(body) = &self.body else {
            return code(before);
        };
        let mut out = code(&format!(
            "{before} #[cfg_attr(clippy, allow(clippy::needless_pass_by_value))]"
        ));
        let params = params_group(&self.head);
        out.extend(
            self.head
                .iter()
                .enumerate()
                .map(|(index, tree)| match tree {
                    TokenTree::Group(group) if Some(index) == params => {
                        TokenTree::Group(without_param_attrs(group))
                    }
                    other => other.clone(),
                }),
        );
        out.extend([TokenTree::Group(body.clone())]);
        out
    }
}

/// Where the parameters' parenthesis stands in a function's head: the
/// first after `fn` and its generics, whose `<..>` may hold parentheses
/// (`F: Fn(u32) -> u32`) of their own.
pub(crate) fn params_group(head: &[TokenTree]) -> Option<usize> {
    let start = head
        .iter()
        .position(|tree| matches!(tree, TokenTree::Ident(ident) if ident == "fn"))?
        + 1;
    signature::outside_angles(&head[start..])
        .find(|(_, tree)| {
            matches!(tree, TokenTree::Group(group) if group.delimiter() == Delimiter::Parenthesis)
        })
        .map(|(index, _)| start + index)
}

/// The parameter list without `#[arg(..)]` and doc attributes: at its top
/// level, a `#` followed by a bracket group can only be an attribute.
fn without_param_attrs(params: &Group) -> Group {
    let mut trees = params.stream().into_iter().peekable();
    let mut kept = Vec::new();
    while let Some(tree) = trees.next() {
        if let TokenTree::Punct(punct) = &tree {
            if punct.as_char() == '#' {
                if let Some(TokenTree::Group(attr)) = trees.peek() {
                    if attr.delimiter() == Delimiter::Bracket && is_ours(attr) {
                        trees.next();
                        continue;
                    }
                }
            }
        }
        kept.push(tree);
    }
    let mut group = Group::new(Delimiter::Parenthesis, kept.into_iter().collect());
    group.set_span(params.span());
    group
}

/// Whether an attribute's brackets hold `arg ..` or `doc ..` (not
/// `arg::x`), looking through the invisible group a `macro_rules!`
/// fragment (`$a:meta`) arrives in.
fn is_ours(attr: &Group) -> bool {
    let mut trees = attr.stream().into_iter();
    match trees.next() {
        Some(TokenTree::Group(inner)) if inner.delimiter() == Delimiter::None => is_ours(&inner),
        Some(TokenTree::Ident(ident)) if ident == ARG || ident == DOC => {
            !matches!(trees.next(), Some(TokenTree::Punct(p)) if p.as_char() == ':')
        }
        _ => false,
    }
}
