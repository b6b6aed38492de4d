//! A quick reading of the plain function heads most prompts have, straight
//! from the tokens into syn's types. syn's parser, built unoptimized as
//! proc macros are in debug builds, costs more than the rest of a
//! `#[prompt]` to run; a head this does not recognize (generics, a
//! receiver, a pattern, `unsafe`, `extern`, a restricted visibility, ...)
//! is left to syn, whose model and errors are the same.

use proc_macro2::{Delimiter, Group, Ident, Spacing, TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::{
    AttrStyle, Attribute, Expr, ExprLit, FnArg, Generics, Lit, MacroDelimiter, Meta, MetaList,
    MetaNameValue, Pat, PatIdent, PatType, Path, ReturnType, Safety, Signature, Token, Type,
    TypePath, Visibility, token,
};

/// The attributes, visibility and signature of `head` (a function's
/// tokens before its body or `;`), if it is of the plain kind.
pub fn read(head: &[TokenTree]) -> Option<(Vec<Attribute>, Visibility, Signature)> {
    let mut tokens = head;
    let attrs = attributes(&mut tokens)?;
    let vis = match tokens {
        [TokenTree::Ident(pub_), TokenTree::Group(_), ..] if pub_ == "pub" => return None,
        [TokenTree::Ident(pub_), rest @ ..] if pub_ == "pub" => {
            tokens = rest;
            Visibility::Public(Token![pub](pub_.span()))
        }
        _ => Visibility::Inherited,
    };
    let asyncness = match tokens {
        [TokenTree::Ident(async_), rest @ ..] if async_ == "async" => {
            tokens = rest;
            Some(Token![async](async_.span()))
        }
        _ => None,
    };
    let [
        TokenTree::Ident(fn_),
        TokenTree::Ident(ident),
        TokenTree::Group(params),
        rest @ ..,
    ] = tokens
    else {
        return None;
    };
    if fn_ != "fn" || is_keyword(ident) || params.delimiter() != Delimiter::Parenthesis {
        return None;
    }
    let output = match rest {
        [] => ReturnType::Default,
        [TokenTree::Punct(dash), TokenTree::Punct(gt), ty @ ..]
            if dash.as_char() == '-' && dash.spacing() == Spacing::Joint && gt.as_char() == '>' =>
        {
            // A `where` clause is syn's to read (and refuse).
            if ty
                .iter()
                .any(|t| matches!(t, TokenTree::Ident(i) if i == "where"))
            {
                return None;
            }
            ReturnType::Type(
                Token![->]([dash.span(), gt.span()]),
                Box::new(read_type(ty)?),
            )
        }
        _ => return None,
    };
    Some((
        attrs,
        vis,
        Signature {
            constness: None,
            asyncness,
            safety: Safety::Default,
            abi: None,
            fn_token: Token![fn](fn_.span()),
            ident: ident.clone(),
            generics: Generics::default(),
            paren_token: token::Paren {
                span: params.delim_span(),
            },
            inputs: parameters(params)?,
            variadic: None,
            output,
        },
    ))
}

/// `name: Type` parameters, each with its attributes.
fn parameters(params: &Group) -> Option<Punctuated<FnArg, Token![,]>> {
    let trees: Vec<TokenTree> = params.stream().into_iter().collect();
    let mut inputs = Punctuated::new();
    for param in split_commas(&trees) {
        let (param, comma) = param;
        let mut tokens = param;
        let attrs = attributes(&mut tokens)?;
        let [TokenTree::Ident(ident), TokenTree::Punct(colon), ty @ ..] = tokens else {
            return None;
        };
        // `mut x`, `ref x` and keywords are syn's; a lone `:` is not `::`.
        if is_keyword(ident) || ident == "mut" || ident == "ref" || colon.as_char() != ':' {
            return None;
        }
        if colon.spacing() == Spacing::Joint {
            return None;
        }
        let pat = Pat::Ident(PatIdent {
            attrs: Vec::new(),
            by_ref: None,
            mutability: None,
            ident: ident.clone(),
            subpat: None,
        });
        inputs.push_value(FnArg::Typed(PatType {
            attrs,
            pat: Box::new(pat),
            colon_token: Token![:](colon.span()),
            ty: Box::new(read_type(ty)?),
        }));
        if let Some(comma) = comma {
            inputs.push_punct(Token![,](comma));
        }
    }
    Some(inputs)
}

/// Each parameter's tokens, split at the commas outside `<..>`, with the
/// span of the comma after it.
fn split_commas(trees: &[TokenTree]) -> Vec<(&[TokenTree], Option<proc_macro2::Span>)> {
    let mut params = Vec::new();
    let mut start = 0;
    for (index, tree) in outside_angles(trees) {
        if let TokenTree::Punct(comma) = tree {
            if comma.as_char() == ',' {
                params.push((&trees[start..index], Some(comma.span())));
                start = index + 1;
            }
        }
    }
    if start < trees.len() {
        params.push((&trees[start..], None));
    }
    params
}

/// The trees of `trees` outside any `<..>` (generic parameters or
/// arguments, which may hold commas and parentheses of their own), with
/// their index. The `>` of a `->` closes nothing.
pub fn outside_angles(trees: &[TokenTree]) -> impl Iterator<Item = (usize, &TokenTree)> {
    let mut depth = 0usize;
    let mut arrow = false;
    trees.iter().enumerate().filter(move |(_, tree)| {
        let outside = depth == 0;
        match tree {
            TokenTree::Punct(punct) => {
                match punct.as_char() {
                    '<' => depth += 1,
                    '>' if !arrow => depth = depth.saturating_sub(1),
                    _ => {}
                }
                arrow = punct.as_char() == '-' && punct.spacing() == Spacing::Joint;
            }
            _ => arrow = false,
        }
        outside
    })
}

/// A type: a lone name read here, anything longer by syn.
fn read_type(tokens: &[TokenTree]) -> Option<Type> {
    match tokens {
        [TokenTree::Ident(name)] if !is_keyword(name) => Some(Type::Path(TypePath {
            attrs: Vec::new(),
            qself: None,
            path: Path::from(name.clone()),
        })),
        _ => syn::parse2(tokens.iter().cloned().collect()).ok(),
    }
}

/// Whether `ident` is a word syn reads as something else than a name (a
/// path keyword, `_`, a keyword of later editions, which a crate of an
/// earlier one may use as a name): syn's to read, or refuse.
fn is_keyword(ident: &Ident) -> bool {
    const KEYWORDS: [&str; 11] = [
        "self", "Self", "super", "crate", "_", "dyn", "impl", "async", "await", "try", "gen",
    ];
    KEYWORDS.iter().any(|keyword| ident == keyword)
}

/// The `#[..]` attributes at the front of `tokens`, which are left after
/// them: `#[name = "literal"]`, `#[name(..)]` or `#[name]`.
fn attributes(tokens: &mut &[TokenTree]) -> Option<Vec<Attribute>> {
    let mut attrs = Vec::new();
    while let [TokenTree::Punct(pound), TokenTree::Group(group), rest @ ..] = *tokens {
        if pound.as_char() != '#' || group.delimiter() != Delimiter::Bracket {
            break;
        }
        attrs.push(Attribute {
            pound_token: Token![#](pound.span()),
            style: AttrStyle::Outer,
            bracket_token: token::Bracket {
                span: group.delim_span(),
            },
            meta: meta(group.stream())?,
        });
        *tokens = rest;
    }
    Some(attrs)
}

fn meta(tokens: TokenStream) -> Option<Meta> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    match trees.as_slice() {
        [TokenTree::Ident(name)] => Some(Meta::Path(Path::from(name.clone()))),
        [
            TokenTree::Ident(name),
            TokenTree::Punct(eq),
            TokenTree::Literal(value),
        ] if eq.as_char() == '=' => Some(Meta::NameValue(MetaNameValue {
            path: Path::from(name.clone()),
            eq_token: Token![=](eq.span()),
            value: Expr::Lit(ExprLit {
                attrs: Vec::new(),
                lit: Lit::new(value.clone()),
            }),
        })),
        [TokenTree::Ident(name), TokenTree::Group(args)]
            if args.delimiter() == Delimiter::Parenthesis =>
        {
            Some(Meta::List(MetaList {
                path: Path::from(name.clone()),
                delimiter: MacroDelimiter::Paren(token::Paren {
                    span: args.delim_span(),
                }),
                tokens: args.stream(),
            }))
        }
        _ => None,
    }
}
