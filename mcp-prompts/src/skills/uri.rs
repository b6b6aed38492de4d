//! `skill://` URIs: the path under the skills root, after the scheme. A
//! URI is looked up as the exact text a listing gave, never resolved
//! against a file system, so `..`, `.`, doubled or trailing slashes and
//! percent-encodings name nothing and are refused like any unknown URI.

use mcp_prompts_template::rules::is_skill_path_segment;

/// The scheme of skill resources, with its `//`.
pub(crate) const SCHEME: &str = "skill://";

/// The path `uri` names under the skills root, if it is a skill URI
/// written as listings write them.
pub(crate) fn path_of(uri: &str) -> Option<&str> {
    let path = uri.strip_prefix(SCHEME)?;
    let plain = path.split('/').all(is_skill_path_segment);
    plain.then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_paths_name_anything() {
        assert_eq!(path_of("skill://a/b/SKILL.md"), Some("a/b/SKILL.md"));
        for uri in [
            "skill://",
            "skill://a//b",
            "skill://a/",
            "skill://a/../b",
            "skill://a/./b",
            "skill://a%2Fb",
            "skill://a/b?x",
            "skill://a/b#x",
            "skill://a\\b",
            "file:///a",
            "SKILL://a",
        ] {
            assert_eq!(path_of(uri), None, "{uri}");
        }
    }
}
