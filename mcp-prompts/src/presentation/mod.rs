//! How a prompt is presented beyond its name and arguments: icons, `_meta`
//! entries and tags.

mod icon;
mod meta;

pub use icon::{Icon, IconTheme};
pub use meta::MetaValue;
pub(crate) use meta::listed_meta;

/// The `_meta` key under which a prompt's tags are listed, as an array of
/// strings (`{"mcp-prompts/tags": ["git", "review"]}`).
pub const TAGS_META_KEY: &str = mcp_prompts_template::rules::TAGS_META_KEY;
