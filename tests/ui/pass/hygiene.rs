//! The expansion names everything by absolute path, so user items that
//! shadow prelude names do not break it.
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
    mod core {}
    mod std {}

    #[mcp_prompts::prompt]
    fn shadowed(text: ::std::string::String) -> ::std::string::String {
        text
    }
}

fn main() {}
