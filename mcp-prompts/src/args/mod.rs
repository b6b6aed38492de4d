//! From the strings MCP delivers to typed Rust values.

#[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
mod dates;
mod flatten;
mod json;
pub(crate) mod param;
mod parse;

pub use flatten::PromptArgs;
pub use json::Json;
pub use param::PromptParam;
pub use parse::{IntoArgText, PromptArg};
