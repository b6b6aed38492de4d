//! JSON-RPC 2.0 framing, MCP protocol revisions, and the data and rules MCP
//! itself defines (log levels, the name rule). Pure data; no I/O.

pub(crate) mod answer;
pub(crate) mod arguments;
mod cow_str;
pub(crate) mod cursor;
pub(crate) mod era;
pub(crate) mod jsonrpc;
pub(crate) mod language;
mod log_level;
pub(crate) mod method;
pub(crate) mod modern;
pub(crate) mod params;
pub(crate) mod request_meta;
pub(crate) mod to_client;
mod version;

pub use arguments::Arguments;
pub(crate) use cow_str::{CowStr, cow_str, optional_cow_str};
pub use log_level::LogLevel;
pub use version::ProtocolVersion;

/// The name rule MCP gives tools, applied to prompts and their arguments.
pub(crate) fn is_valid_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rule() {
        assert!(is_valid_name("code_review"));
        assert!(is_valid_name("a.b-c_D9"));
        assert!(!is_valid_name(""));
        assert!(!is_valid_name("has space"));
        assert!(!is_valid_name("é"));
        assert!(!is_valid_name(&"x".repeat(129)));
    }
}
