//! Snapshots of representative expansions, pretty-printed, so a change to
//! what the macros generate shows up in review; and a count of the items
//! each `#[prompt]` adds, which bounds what every prompt costs to compile.

use proc_macro2::TokenStream;
use quote::quote;
use syn::visit::Visit;

/// The expansion as a reader would see it.
fn pretty(tokens: &TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens.clone()).expect("the expansion parses as items");
    prettyplease::unparse(&file)
}

/// Items the expansion adds besides the user's function `user_fn`: every
/// item at any depth, and every associated item.
fn generated_items(tokens: &TokenStream, user_fn: &str) -> usize {
    #[derive(Default)]
    struct Count(usize);
    impl<'ast> Visit<'ast> for Count {
        fn visit_item(&mut self, item: &'ast syn::Item) {
            self.0 += 1;
            syn::visit::visit_item(self, item);
        }
        fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
            self.0 += 1;
            syn::visit::visit_impl_item(self, item);
        }
    }
    let file: syn::File = syn::parse2(tokens.clone()).expect("the expansion parses as items");
    let mut count = Count::default();
    for item in &file.items {
        match item {
            syn::Item::Fn(f) if f.sig.ident == user_fn => {}
            other => count.visit_item(other),
        }
    }
    count.0
}

/// The project's budget, exactly: five items per prompt (the handle
/// struct, its impl, `NAME`, `PROMPT`, the registration), one `const` per default or example and one for the other checks
/// (`checks`, 0 or 1), and for a prompt with `scopes` or `visible` the
/// registration of its restriction, for one with icons, `_meta`, tags or
/// `as_tool` the registration of its extras. The typed builder (feature `builders`) adds
/// `args()`, the conversion into a `GetPrompt` (an impl and its function)
/// and one setter per argument. Every item costs check time, called or not.
fn assert_budget(tokens: &TokenStream, user_fn: &str, checks: usize, builder: Option<usize>) {
    let items = generated_items(tokens, user_fn);
    let budget = 5 + checks + builder.map_or(0, |setters| 3 + setters);
    assert_eq!(
        items, budget,
        "`{user_fn}` generates {items} items; its budget is {budget}"
    );
}

/// `#[prompt]` with `args` on `item`, expanded without and with the typed
/// builder, each checked against the budget; the first, to snapshot.
fn expand_prompt(
    args: TokenStream,
    item: TokenStream,
    user_fn: &str,
    checks: usize,
    arguments: usize,
) -> (TokenStream, TokenStream) {
    let plain = crate::prompt::expand(args.clone(), item.clone(), false);
    assert_budget(&plain, user_fn, checks, None);
    let with_builder = crate::prompt::expand(args, item, true);
    assert_budget(&with_builder, user_fn, checks, Some(arguments));
    (plain, with_builder)
}

#[test]
fn sync_prompt_with_three_arguments() {
    let (out, with_builder) = expand_prompt(
        TokenStream::new(),
        quote! {
            /// Summarize a text
            pub fn summarize(
                /// The text to summarize
                text: String,
                /// The most words the summary may use
                max_words: u32,
                /// What to focus on
                focus: Option<String>,
            ) -> String {
                format!("Summarize in {max_words} words, focusing on {focus:?}: {text}")
            }
        },
        "summarize",
        0,
        3,
    );
    insta::assert_snapshot!(pretty(&out));
    insta::assert_snapshot!(
        "sync_prompt_with_three_arguments_and_builder",
        pretty(&with_builder)
    );
}

#[test]
fn async_prompt_with_context_default_and_completion() {
    let (out, _) = expand_prompt(
        quote!(name = "review-code", title = "Code review"),
        quote! {
            /// Review code
            async fn review(
                ctx: RequestContext,
                #[arg(example = "fn main() {}")]
                code: String,
                #[arg(default = 5)]
                max_issues: u8,
                #[arg(complete = ["rust", "python"])]
                language: Option<String>,
            ) -> Result<String, std::io::Error> {
                Ok(code)
            }
        },
        "review",
        2,
        4,
    );
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn template_prompt() {
    let (out, _) = expand_prompt(
        quote!(template = "Greet {name}, {tone}ly.\n--- assistant\nHello {name}!"),
        quote! {
            /// Compose a greeting
            fn greet(name: String, tone: Tone);
        },
        "greet",
        1,
        2,
    );
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn prompt_with_flattened_arguments() {
    let (out, _) = expand_prompt(
        TokenStream::new(),
        quote! {
            /// Summarize a repository
            fn summarize_repo(#[arg(flatten)] repo: Repo, depth: Depth) -> String {
                format!("{repo:?} {depth}")
            }
        },
        "summarize_repo",
        1,
        2,
    );
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn prompt_shown_per_caller() {
    let (out, _) = expand_prompt(
        quote!(scopes = ["deploy", "repo:read"], visible = staff::only),
        quote! {
            /// Deployment notes
            fn deploy_notes(service: String) -> String {
                format!("Notes for {service}")
            }
        },
        "deploy_notes",
        // No checks; one more registration: its restriction's.
        1,
        1,
    );
    insta::assert_snapshot!(pretty(&out));
}

/// Icons, `_meta`, tags and `as_tool`: one registration more, of its
/// extras, and nothing else.
#[test]
fn prompt_with_extras() {
    let (out, _) = expand_prompt(
        quote!(
            icon(
                url = "https://example.com/r.png",
                sizes = ["48x48"],
                theme = "dark"
            ),
            meta("com.example/owner" = "team-x", "com.example/rank" = -2),
            tags = ["code"],
            as_tool = false
        ),
        quote! {
            /// Review
            fn review(code: String) -> String {
                code
            }
        },
        "review",
        1,
        1,
    );
    insta::assert_snapshot!(pretty(&out));
}

/// Text that a Rust string literal must escape, in every place the macro
/// writes text: names, descriptions, completion values.
#[test]
fn text_that_needs_escaping() {
    let (out, _) = expand_prompt(
        quote!(title = "Say \"hi\" {now}"),
        quote! {
            /// Quotes ", backslashes \\, braces {x}, tabs\t and non-ASCII: é 🦀
            fn quote_me(
                /// A "quoted" line
                /// and a second one
                #[arg(complete = ["a\"b", "c\\d", "{e}", "ü"])]
                text: String,
            ) -> String {
                text
            }
        },
        "quote_me",
        0,
        1,
    );
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn derived_arguments_struct() {
    let input = quote! {
        pub struct Repo {
            /// The repository's URL
            url: String,
            #[arg(default = "main")]
            branch: String,
        }
    };
    let out = crate::derive_args::expand(input.clone(), false);
    insta::assert_snapshot!(pretty(&out));
    let with_builder = crate::derive_args::expand(input, true);
    insta::assert_snapshot!(
        "derived_arguments_struct_and_builder",
        pretty(&with_builder)
    );
}

#[test]
fn derived_choice_enum() {
    let out = crate::derive_choice::expand(quote! {
        #[prompt_arg(rename_all = "kebab-case")]
        pub enum Depth {
            Quick,
            #[prompt_arg(alias = "thorough")]
            VeryThorough,
        }
    });
    insta::assert_snapshot!(pretty(&out));
}
