//! The rules of what a prompt declares besides its template, checked by
//! the macro when the crate compiles and by the runtime when a prompt is
//! built: `_meta` keys, tags, icons.

/// The `_meta` key under which a prompt's tags are listed.
pub const TAGS_META_KEY: &str = "mcp-prompts/tags";

/// The largest icon file embedded as a `data:` URI, in bytes.
pub const MAX_ICON_BYTES: usize = 64 * 1024;

/// Checks a `_meta` key against the MCP rules (2025-06-18 on): an
/// optional prefix of dot-separated labels ending in `/`, then a name.
/// Prefixes naming `modelcontextprotocol` or `mcp` before another label
/// or as the second label are reserved for MCP, and the tags key is ours.
pub fn check_meta_key(key: &str) -> Result<(), String> {
    if key == TAGS_META_KEY {
        return Err(format!(
            "`_meta` key `{key}` is where tags are listed; use `tags` instead"
        ));
    }
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let labels: Vec<&str> = prefix.split('.').collect();
        if let Some(bad) = labels.iter().find(|label| !is_label(label)) {
            return Err(format!(
                "`_meta` key `{key}`: prefix label `{bad}` must start with a letter, end with a letter or digit, and hold only letters, digits and `-`"
            ));
        }
        // 2025-06-18 reserves `modelcontextprotocol` or `mcp` followed by
        // another label (`mcp.dev/`); 2025-11-25, either as the second
        // label (`io.modelcontextprotocol/`). Both hold for every revision.
        let names_mcp = |label: &str| {
            label.eq_ignore_ascii_case("mcp") || label.eq_ignore_ascii_case("modelcontextprotocol")
        };
        let reserved = (labels.iter().enumerate())
            .any(|(i, label)| names_mcp(label) && (i + 1 < labels.len() || i == 1));
        if reserved {
            return Err(format!(
                "`_meta` key `{key}`: prefix `{prefix}/` is reserved for MCP"
            ));
        }
    }
    // The rules allow an empty name after a prefix (`com.example/`); a key
    // that is empty altogether says nothing.
    if !(is_name(name) || (name.is_empty() && prefix.is_some())) {
        return Err(format!(
            "`_meta` key `{key}`: the name must begin and end with a letter or digit and hold only letters, digits, `-`, `_` and `.`"
        ));
    }
    Ok(())
}

fn is_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphabetic()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

fn is_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// Checks a tag: some text, without control characters or spaces at its
/// ends.
pub fn check_tag(tag: &str) -> Result<(), String> {
    if tag.is_empty() || tag.trim() != tag || tag.chars().any(char::is_control) {
        return Err(format!(
            "tag `{tag}` must be some text, without control characters or spaces at its ends"
        ));
    }
    Ok(())
}

/// The MIME type of an icon file, from its extension: the formats MCP
/// clients render (PNG and JPEG must be, SVG and WebP should be).
pub fn icon_mime_type(path: &str) -> Option<&'static str> {
    let (_, extension) = path.rsplit_once('.')?;
    Some(match extension.to_ascii_lowercase().as_str() {
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        _ => return None,
    })
}

/// Checks an icon's source: an `https:` URL or a `data:` URI of an image,
/// what clients accept (they must reject other schemes).
pub fn check_icon_src(src: &str) -> Result<(), String> {
    let scheme = src.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    let image = |rest: &str| {
        rest.get(..6)
            .is_some_and(|kind| kind.eq_ignore_ascii_case("image/"))
            && rest.contains(',')
    };
    match scheme.as_deref() {
        Some("https") if src.len() > "https://".len() && src[6..].starts_with("//") => Ok(()),
        Some("data") if image(&src[5..]) => Ok(()),
        _ => Err(format!(
            "icon `{}` must be an `https://` URL or a `data:image/...` URI",
            excerpt(src)
        )),
    }
}

/// Whether `src` is a `data:` URI (its scheme in any case).
pub fn is_data_uri(src: &str) -> bool {
    src.get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("data:"))
}

/// Checks an icon size: `WxH` in pixels, or `any` (for scalable formats).
pub fn check_icon_size(size: &str) -> Result<(), String> {
    let pixels = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let valid = size == "any"
        || size
            .split_once('x')
            .is_some_and(|(w, h)| pixels(w) && pixels(h));
    if valid {
        Ok(())
    } else {
        Err(format!(
            "icon size `{size}` must be `WxH` (as `48x48`) or `any`"
        ))
    }
}

/// At most 60 characters of `text`, for messages: a data URI is long.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// Whether `scope` is a scope token (RFC 6749 §3.3): printable ASCII
/// without spaces, `"` or `\\`, so that it fits in a `WWW-Authenticate`
/// header and a space-separated `scope` claim.
pub fn is_valid_scope(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E))
}

/// Whether `segment` can be one segment of a `skill://` resource's path,
/// served as it is: not empty, `.` or `..`, and without `%`, `?`, `#`,
/// `\\` or a control character, which a URI would have to escape (a
/// client that escapes them would name nothing).
pub fn is_skill_path_segment(segment: &str) -> bool {
    !matches!(segment, "" | "." | "..")
        && !segment.contains(['%', '?', '#', '\\'])
        && !segment.chars().any(char::is_control)
}

/// A file's front matter between two `fence` lines (`+++`, `---`): the
/// front matter, the byte where the body starts and the body's line;
/// `None` if the first line is no fence, `Err` if no line closes it.
pub fn fenced<'a>(text: &'a str, fence: &str) -> Option<Result<(&'a str, usize, usize), ()>> {
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim) != Some(fence) {
        return None;
    }
    let front_start = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut offset = front_start;
    for (index, line) in lines.enumerate() {
        if line.trim() == fence {
            return Some(Ok((
                &text[front_start..offset],
                offset + line.len(),
                index + 3,
            )));
        }
        offset += line.len();
    }
    Some(Err(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_keys_follow_the_rules() {
        for good in [
            "owner",
            "com.example/owner",
            "a-b.c9/x_y.z",
            "x/1",
            "com.example/",
        ] {
            assert_eq!(check_meta_key(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "-x",
            "x-",
            "com..example/x",
            "9com/x",
            "com.example-/x",
            "io.modelcontextprotocol/x",
            "tools.mcp.com/x",
            "mcp.dev/x",
            "has space",
            TAGS_META_KEY,
        ] {
            assert!(check_meta_key(bad).is_err(), "{bad}");
        }
        // `mcp` as a later last label is not a reserved prefix.
        assert_eq!(check_meta_key("com.example.mcp/x"), Ok(()));
        assert!(check_meta_key("io.mcp/x").is_err());
    }

    #[test]
    fn icons_and_tags_follow_the_rules() {
        assert!(check_icon_src("https://example.com/a.png").is_ok());
        assert!(check_icon_src("data:image/png;base64,AAAA").is_ok());
        for bad in [
            "http://example.com/a.png",
            "javascript:alert(1)",
            "file:///x",
            "https:",
            "x",
        ] {
            assert!(check_icon_src(bad).is_err(), "{bad}");
        }
        assert!(check_icon_size("48x48").is_ok() && check_icon_size("any").is_ok());
        assert!(check_icon_size("48").is_err() && check_icon_size("x48").is_err());
        assert_eq!(icon_mime_type("a/b.SVG"), Some("image/svg+xml"));
        assert_eq!(icon_mime_type("b.gif"), None);
        assert!(check_tag("git").is_ok());
        assert!(check_tag("").is_err() && check_tag(" git").is_err() && check_tag("a\nb").is_err());
    }

    #[test]
    fn skill_path_segments_need_no_escape() {
        assert!(is_skill_path_segment("SKILL.md") && is_skill_path_segment("é t"));
        for bad in ["", ".", "..", "50%", "a?b", "a#b", "a\\b", "a\nb"] {
            assert!(!is_skill_path_segment(bad), "{bad:?}");
        }
        assert!(is_valid_scope("read:docs") && !is_valid_scope("a b") && !is_valid_scope(""));
    }
}
