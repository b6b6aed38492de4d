//! Content blocks as rmcp's model types.

use ::rmcp::model as r;

use crate::content::{Content, ContentKind, Role};
use crate::protocol::ProtocolVersion;

/// `content` as rmcp's `ContentBlock`, as `version` has it. Plain text,
/// by far the most common, converts directly; any other block goes through
/// our own serializer's JSON, which says what each revision has, so the
/// two routes cannot drift apart.
pub(crate) fn block(
    content: &Content,
    version: ProtocolVersion,
) -> Result<r::ContentBlock, serde_json::Error> {
    match content.kind() {
        ContentKind::Text(text) if content.annotations().is_none() => {
            Ok(r::ContentBlock::Text(r::TextContent::new(text.clone())))
        }
        _ => serde_json::from_value(serde_json::to_value(content.for_version(version))?),
    }
}

/// `role` as rmcp's.
pub(crate) fn role_of(role: Role) -> r::Role {
    match role {
        Role::User => r::Role::User,
        Role::Assistant => r::Role::Assistant,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::content::{Annotations, ResourceLink};

    /// What rmcp sends for a block, to compare with what we send.
    fn wire(block: &r::ContentBlock) -> serde_json::Value {
        serde_json::to_value(block).unwrap()
    }

    #[test]
    fn every_block_type_converts_as_the_wire_has_it() {
        let version = crate::protocol::ProtocolVersion::V2025_11_25;
        let annotations = Annotations::new()
            .audience([Role::User, Role::Assistant])
            .priority(0.5)
            .last_modified("2026-01-01T00:00:00Z");
        let blocks = [
            Content::text("hi"),
            Content::text("noted").with_annotations(annotations),
            Content::image([1u8, 2, 3], "image/png"),
            Content::audio([4u8, 5], "audio/wav"),
            Content::resource_link(
                ResourceLink::new("file:///a.md", "a")
                    .title("A")
                    .description("The a file")
                    .mime_type("text/markdown")
                    .size(12),
            ),
            Content::embedded_text("file:///n.md", "text/markdown", "# N"),
            Content::embedded_blob("file:///b.bin", "application/octet-stream", [9u8]),
        ];
        for version in [version, crate::protocol::ProtocolVersion::V2025_03_26] {
            for content in &blocks {
                let ours = serde_json::to_value(content.for_version(version)).unwrap();
                assert_eq!(wire(&block(content, version).unwrap()), ours, "{content:?}");
            }
        }
    }

    #[test]
    fn roles_convert() {
        assert_eq!(role_of(Role::User), r::Role::User);
        assert_eq!(role_of(Role::Assistant), r::Role::Assistant);
        assert_eq!(
            serde_json::to_value(role_of(Role::Assistant)).unwrap(),
            json!("assistant")
        );
    }
}
