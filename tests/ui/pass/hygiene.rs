//! The expansions name everything by absolute path, so user items that
//! shadow prelude names (or names the expansion uses) do not break them.
#![deny(warnings)]

#[allow(dead_code)]
mod shadowing {
    struct Result;
    struct Option;
    struct Some;
    struct None;
    struct Ok;
    struct Err;
    struct String;
    struct Vec;
    struct Builder;
    struct Args;
    struct ARGS;
    struct NAMES;
    struct Template;
    mod core {}
    mod std {}

    #[mcp_prompts::prompt]
    fn shadowed(text: ::std::string::String) -> ::std::string::String {
        text
    }

    #[derive(mcp_prompts::PromptArgs)]
    struct Fields {
        builder: ::std::string::String,
    }

    #[derive(mcp_prompts::PromptArg)]
    enum Choice {
        One,
        Two,
    }

    /// Uses every generated piece.
    #[mcp_prompts::prompt(template = "{builder} {choice}")]
    fn templated(#[arg(flatten)] fields: Fields, choice: Choice);

    const CATALOG: mcp_prompts::Catalog = mcp_prompts::catalog![shadowed, templated];
}

fn main() {}
