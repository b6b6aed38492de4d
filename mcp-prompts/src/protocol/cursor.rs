//! The cursors of paginated listings: opaque to clients, a page number to
//! us. Every listing (prompts, skills, resources) cuts pages the same way.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as CURSOR;

/// The cursor that points at page `page`.
pub(crate) fn encode(page: usize) -> String {
    CURSOR.encode(format!("page:{page}"))
}

/// The page `cursor` points at, if it is one of ours.
pub(crate) fn decode(cursor: &str) -> Option<usize> {
    let bytes = CURSOR.decode(cursor).ok()?;
    std::str::from_utf8(&bytes)
        .ok()?
        .strip_prefix("page:")?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip() {
        assert_eq!(decode(&encode(3)), Some(3));
        assert_eq!(decode("nope"), None);
    }
}
