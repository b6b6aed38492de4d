//! What a prompt declares besides its arguments and template: icons
//! (`icon`, `icon_file`, `icon(..)`), `_meta` entries (`meta(..)`), `tags`
//! and `as_tool`. In the macro's three stages: parsed with the other keys
//! (`parse.rs`), checked with the other rules, an icon file read and
//! embedded as a `data:` URI (`check.rs`), and expanded into one
//! registration apart from the definition, which only the prompts that
//! declare any of them pay for (`expand.rs`).

mod check;
mod expand;
mod parse;

use syn::{LitBool, LitStr};

pub use check::{LoadedIcon, load};
pub use expand::registration;
pub use parse::{as_tool, icon_file, icon_list, icon_url, meta_entries};

/// One icon as written.
pub struct IconAttr {
    pub source: IconSource,
    pub sizes: Vec<LitStr>,
    pub theme: Option<LitStr>,
}

/// Where an icon's image is.
pub enum IconSource {
    Url(LitStr),
    /// A file relative to the crate's root, embedded.
    File(LitStr),
}

/// One `"key" = literal` of `meta(..)`.
pub struct MetaEntry {
    pub key: LitStr,
    pub value: MetaLit,
}

/// A `_meta` value as written: a literal of one of the kinds `MetaValue`
/// has, read when parsed.
pub enum MetaLit {
    Text(LitStr),
    Bool(LitBool),
    Integer(i64),
    Number(f64),
}
