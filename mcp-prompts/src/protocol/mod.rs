//! JSON-RPC 2.0 framing and MCP protocol revisions. Pure data; no I/O.

mod cow_str;
pub(crate) mod jsonrpc;
mod log_level;
pub(crate) mod modern;
mod version;

pub(crate) use cow_str::{CowStr, cow_str, optional_cow_str};
pub use log_level::LogLevel;
pub use version::ProtocolVersion;
