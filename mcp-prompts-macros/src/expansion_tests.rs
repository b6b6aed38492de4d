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

/// The project's budget: ten items per prompt, plus the typed builder's one
/// setter per argument (generic, so never compiled to code unless called).
fn assert_within_budget(tokens: &TokenStream, user_fn: &str, arguments: usize) {
    let items = generated_items(tokens, user_fn);
    assert!(
        items <= 10 + arguments,
        "`{user_fn}` generates {items} items, over 10 + {arguments} setters"
    );
}

#[test]
fn sync_prompt_with_three_arguments() {
    let out = crate::prompt::expand(
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
    );
    assert_within_budget(&out, "summarize", 3);
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn async_prompt_with_context_default_and_completion() {
    let out = crate::prompt::expand(
        quote!(name = "review-code", title = "Code review"),
        quote! {
            /// Review code
            async fn review(
                ctx: RequestContext,
                code: String,
                #[arg(default = 5)]
                max_issues: u8,
                #[arg(complete = ["rust", "python"])]
                language: Option<String>,
            ) -> Result<String, std::io::Error> {
                Ok(code)
            }
        },
    );
    assert_within_budget(&out, "review", 4);
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn template_prompt() {
    let out = crate::prompt::expand(
        quote!(template = "Greet {name}, {tone}ly.\n--- assistant\nHello {name}!"),
        quote! {
            /// Compose a greeting
            fn greet(name: String, tone: Tone);
        },
    );
    assert_within_budget(&out, "greet", 2);
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn prompt_with_flattened_arguments() {
    let out = crate::prompt::expand(
        TokenStream::new(),
        quote! {
            /// Summarize a repository
            fn summarize_repo(#[arg(flatten)] repo: Repo, depth: Depth) -> String {
                format!("{repo:?} {depth}")
            }
        },
    );
    assert_within_budget(&out, "summarize_repo", 2);
    insta::assert_snapshot!(pretty(&out));
}

#[test]
fn derived_arguments_struct() {
    let out = crate::derive_args::expand(quote! {
        pub struct Repo {
            /// The repository's URL
            url: String,
            #[arg(default = "main")]
            branch: String,
        }
    });
    insta::assert_snapshot!(pretty(&out));
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
