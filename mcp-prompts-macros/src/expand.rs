//! Code generation for `#[prompt]`. Nothing here can fail: every rule was
//! checked before.

use std::fmt::Write as _;

use proc_macro2::{Delimiter, Group, Punct, Spacing, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ReturnType, Visibility};

use crate::arglist;
use crate::ast::Prompt;
use crate::extras;
use crate::item::PromptItem;
use crate::paths::{
    PRIVATE, PUBLIC, check_stmt, code, const_checks, option_code, private, private_at, str_code,
};
use crate::template::Template;
use crate::valid::Checked;

/// The handle: a struct of the function's name (structs and functions
/// live in different namespaces) whose impl holds the name and the
/// definition with the glue in it (with `builders`, also the typed
/// builder's setters and its conversion into a `GetPrompt`); the
/// registration; the function (unless a template stands for it); the
/// compile-time checks.
///
/// Generated code that carries no span of the user's is written as text
/// and lexed by the compiler, as much of it in one call as the user's
/// tokens between allow; streams are joined whole (`extend([stream])`),
/// never token by token, which would bring every token back from the
/// compiler and send it again.
pub fn prompt(
    prompt: &Prompt<'_>,
    func: &PromptItem,
    checked: &Checked,
    builders: bool,
) -> TokenStream {
    let template = checked.template.as_ref();
    let ident = &prompt.sig.ident;
    let (name, _) = prompt.name();
    let setters = builders.then(|| arglist::setters(&prompt.params, prompt.vis));
    let cfgs: Vec<_> = cfgs(prompt).collect();
    let definition = PromptConst {
        text: format!("{PRIVATE}::PromptDef"),
        fields: Some(definition_fields(prompt, template)),
    };
    let mut out = handle(prompt.vis, ident, &name, definition, setters, &cfgs);
    if !cfgs.is_empty() {
        out.extend([quote!(#(#cfgs)*)]);
    }
    // The registration, lexed with the function's first attribute. A
    // template prompt registers as one (its translations may give a
    // template per language), in the same one item.
    let registration = if template.is_some() {
        "Templated"
    } else {
        "Registration"
    };
    out.extend([func.user_fn(&format!(
        "{PRIVATE}::inventory::submit! {{ \
             {PRIVATE}::{registration}({ident}::PROMPT) \
         }}"
    ))]);
    let value_checks = arglist::value_checks(&prompt.params);
    let checks = const_checks(&checks(prompt, template));
    if cfgs.is_empty() {
        out.extend([value_checks, checks]);
    } else {
        // One item the `#[cfg]`s can apply to.
        out.extend([quote! {
            #(#cfgs)*
            const _: () = { #value_checks #checks };
        }]);
    }
    if let Some(restricted) = restriction(prompt) {
        out.extend([quote!(#(#cfgs)* #restricted)]);
    }
    let attrs = &prompt.attrs;
    let extended = extras::registration(
        ident,
        &checked.icons,
        attrs.meta.as_deref().unwrap_or_default(),
        attrs.tags.as_deref().unwrap_or_default(),
        attrs.as_tool.as_ref(),
    );
    if let Some(extended) = extended {
        out.extend([quote!(#(#cfgs)* #extended)]);
    }
    out
}

/// After an error, a handle whose definition can never be served, so that
/// uses of the handle elsewhere do not add errors of their own.
pub fn placeholder_handle(
    vis: &Visibility,
    ident: &syn::Ident,
    name: &str,
    builders: bool,
) -> TokenStream {
    let definition = PromptConst {
        text: format!("{PRIVATE}::placeholder_def({})", str_code(name)),
        fields: None,
    };
    let setters = builders.then(TokenStream::new);
    handle(vis, ident, name, definition, setters, &[])
}

/// What the handle's `PROMPT` holds: `text`, then, for a struct literal,
/// its `fields` in braces.
struct PromptConst {
    text: String,
    fields: Option<TokenStream>,
}

/// The handle struct `ident`: `ident::NAME` and `ident::PROMPT` (a
/// constant holding `definition`). With `setters` (feature `builders`),
/// the struct is also the typed builder `ident::args()` starts.
///
/// The struct's name is the function's written as text, so spanned at the
/// call site: it resolves as the user's would, and the compiler takes the
/// struct for generated code, so that a lowercase type name or an unused
/// `NAME` is no warning (an `#[allow]` on every handle costs check time).
fn handle(
    vis: &Visibility,
    ident: &syn::Ident,
    name: &str,
    definition: PromptConst,
    setters: Option<TokenStream>,
    cfgs: &[&syn::Attribute],
) -> TokenStream {
    let name_code = str_code(name);
    let doc = match setters {
        None => format!("The `{name}` prompt's handle: its name and its definition."),
        Some(_) => format!(
            "The `{name}` prompt's handle: its name, its definition, and a typed builder of a `prompts/get` request for it."
        ),
    };
    let mut out = TokenStream::new();
    let mut text = format!("#[doc = {}]", str_code(&doc));
    // The user's tokens between the text: lexes the text so far first.
    let mut splice = |text: &mut String, tokens: TokenStream| {
        out.extend([code(text), tokens]);
        text.clear();
    };
    if !cfgs.is_empty() {
        splice(&mut text, quote!(#(#cfgs)*));
    }
    match vis {
        Visibility::Public(_) => text.push_str(" pub"),
        Visibility::Inherited => {}
        Visibility::Restricted(_) => splice(&mut text, vis.to_token_stream()),
    }
    // Braced, so the struct has no constructor in the value namespace,
    // where the function is. Without a builder nothing constructs it: it
    // is a name.
    let fields = match setters {
        None => "{}".to_owned(),
        Some(_) => format!("{{ request: {PUBLIC}::GetPrompt, }}"),
    };
    write!(text, " struct {ident} {fields}").expect("writing to a string");
    if setters.is_some() {
        // A parameter's type may be less visible than the prompt, and a
        // setter is named by the user's parameter.
        text.push_str("#[allow(dead_code, private_bounds, private_interfaces)]");
    }
    if !cfgs.is_empty() {
        splice(&mut text, quote!(#(#cfgs)*));
    }
    write!(text, " impl {ident}").expect("writing to a string");
    out.extend([code(&text)]);
    // A constant, not a `static`: one item fewer to check per prompt. The
    // runtime knows a definition by its handle's type, not its address.
    let mut items = code(&format!(
        "/// The prompt's name, as clients know it.
         pub const NAME: &str = {name_code};

         /// The prompt's definition, for
         /// [`Server::prompts`]({PUBLIC}::Server::prompts) and
         /// [`catalog!`]({PUBLIC}::catalog!).
         pub const PROMPT: &{PUBLIC}::PromptDef = &{}",
        definition.text
    ));
    if let Some(fields) = definition.fields {
        items.extend([braced(fields)]);
    }
    items.extend([TokenTree::Punct(Punct::new(';', Spacing::Alone))]);
    let Some(setters) = setters else {
        out.extend([braced(items)]);
        return out;
    };
    items.extend([
        code(&format!(
            "/// Starts a `prompts/get` request for this prompt; each argument
             /// has a setter that takes its own type or the text a client
             /// would send.
             #[must_use]
             pub fn args() -> Self {{
                 Self {{ request: {PUBLIC}::GetPrompt::new({name_code}) }}
             }}"
        )),
        setters,
    ]);
    out.extend([braced(items)]);
    out.extend([quote!(#(#cfgs)*)]);
    out.extend([code(&format!(
        "impl ::core::convert::From<{ident}> for {PUBLIC}::GetPrompt {{
             fn from(args: {ident}) -> Self {{
                 args.request
             }}
         }}"
    ))]);
    out
}

/// `tokens` in braces.
fn braced(tokens: TokenStream) -> TokenTree {
    TokenTree::Group(Group::new(Delimiter::Brace, tokens))
}

/// The function's `#[cfg]` attributes, which everything generated for it
/// must share.
fn cfgs<'a>(prompt: &Prompt<'a>) -> impl Iterator<Item = &'a syn::Attribute> {
    prompt
        .attrs_of_fn
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
}

/// `, invoke: ` and the glue, a closure the definition holds as a
/// function pointer: one call of the runtime's generic glue for this many
/// parameters, given each parameter's type (and whether it is flattened)
/// and the return type, or the template rendered once every argument has
/// been checked.
fn glue(prompt: &Prompt<'_>, template: Option<&Template>) -> TokenStream {
    if let Some(template) = template {
        let mut glue = quote!(, invoke:);
        glue.extend([template_glue(prompt, template)]);
        return glue;
    }
    let mut glue = code(&format!(
        ", invoke: |__input| {PRIVATE}::call{}::<",
        prompt.params.len()
    ));
    // Each spanned on the parameter's type: an unsupported one is
    // reported there.
    for param in &prompt.params {
        let (ty, private) = (param.ty, private_at(param.ty_span));
        let how = if param.is_flatten() { "Flat" } else { "Plain" };
        let how = syn::Ident::new(how, param.ty_span);
        glue.extend([quote_spanned!(param.ty_span=> #ty, #private::#how,)]);
    }
    let ident = &prompt.sig.ident;
    let mut call = quote!(__input, #ident,);
    call.extend([result_conversion(prompt)]);
    glue.extend([
        quote!(_>),
        TokenStream::from(TokenTree::Group(Group::new(Delimiter::Parenthesis, call))),
    ]);
    glue
}

/// How the function's result becomes the glue's, spanned on the return
/// type: an unsupported one is reported there.
fn result_conversion(prompt: &Prompt<'_>) -> TokenStream {
    let private = private();
    let sig = prompt.sig;
    match (&sig.output, sig.asyncness) {
        (ReturnType::Type(_, ty), Some(_)) => {
            quote_spanned!(ty.span()=> #private::pending::<#ty, _>)
        }
        (ReturnType::Type(_, ty), None) => quote_spanned!(ty.span()=> #private::ready::<#ty>),
        (ReturnType::Default, Some(_)) => {
            quote_spanned!(sig.ident.span()=> #private::pending::<(), _>)
        }
        (ReturnType::Default, None) => quote_spanned!(sig.ident.span()=> #private::ready::<()>),
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
    let template = template.to_tokens(private);
    quote! {
        |__input: &#private::Input<'_>| -> ::core::result::Result<#private::Invocation, #private::Error> {
            let _ = (#(#binds,)*);
            ::core::result::Result::Ok(#private::ready(
                #private::Template::render(&#template, __input),
            ))
        }
    }
}

/// The definition's fields, built where the user's types resolve.
fn definition_fields(prompt: &Prompt<'_>, template: Option<&Template>) -> TokenStream {
    let ident = &prompt.sig.ident;
    let (name, _) = prompt.name();
    let title = prompt.attrs.title.as_ref().map(syn::LitStr::value);
    let mut fields = code(&format!(
        "name: {}, title: {}, description: {}, file: ::core::file!(), \
         handle: ::core::any::TypeId::of::<Self>, params: &",
        str_code(&name),
        option_code(title.as_deref()),
        option_code(prompt.description().as_deref()),
    ));
    fields.extend([
        arglist::defs(&prompt.params),
        glue(prompt, template),
        quote_spanned!(ident.span()=> , line: ::core::line!()),
    ]);
    fields
}

/// Who may see the prompt, registered apart from its definition (only a
/// prompt with `scopes` or `visible` pays for it); the predicate spanned
/// on its path, so that one of the wrong type is reported there.
fn restriction(prompt: &Prompt<'_>) -> Option<TokenStream> {
    let attrs = &prompt.attrs;
    // `scopes = []` asks for nothing: as unrestricted as a run-time prompt
    // with no scopes.
    let no_scopes = attrs.scopes.as_ref().is_none_or(Vec::is_empty);
    if no_scopes && attrs.visible.is_none() {
        return None;
    }
    let private = private();
    let ident = &prompt.sig.ident;
    let scopes = attrs.scopes.iter().flatten();
    let visible = match &attrs.visible {
        Some(path) => quote_spanned!(path.span()=> ::core::option::Option::Some(#path)),
        None => code("::core::option::Option::None"),
    };
    Some(quote! {
        #private::inventory::submit! {
            #private::Restricted(#ident::PROMPT, &#private::Restriction {
                scopes: &[#(#scopes),*],
                visible: #visible,
            })
        }
    })
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
    // Whether an argument may be unset is its type's to say.
    for section in template.sections() {
        checks.push(check_stmt(
            template.span,
            "check_section",
            &quote!(#args, #section, #name),
        ));
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
