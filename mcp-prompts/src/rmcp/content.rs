//! Content blocks as rmcp's model types, converted field by field (no JSON
//! text in between).

use ::rmcp::model as r;

use crate::content::{
    Annotations, Content, ContentKind, EmbeddedResource, ResourceBody, ResourceLink, Role,
};
use crate::protocol::ProtocolVersion;

impl Content {
    /// The block as rmcp's `ContentBlock`, as `version` has it.
    pub(crate) fn to_rmcp(&self, version: ProtocolVersion) -> r::ContentBlock {
        let annotations = self.annotations.as_ref().map(|a| a.to_rmcp(version));
        match &self.kind {
            ContentKind::Text(text) => {
                let mut block = r::TextContent::new(text.clone());
                block.annotations = annotations;
                r::ContentBlock::Text(block)
            }
            ContentKind::Image { data, mime_type } => {
                let mut block = r::ImageContent::new(data.clone(), mime_type.clone());
                block.annotations = annotations;
                r::ContentBlock::Image(block)
            }
            ContentKind::Audio { data, mime_type } => {
                let mut block = r::AudioContent::new(data.clone(), mime_type.clone());
                block.annotations = annotations;
                r::ContentBlock::Audio(block)
            }
            ContentKind::ResourceLink(link) => {
                let mut resource = link.to_rmcp();
                resource.annotations = annotations;
                r::ContentBlock::ResourceLink(resource)
            }
            ContentKind::Resource(embedded) => {
                let mut block = r::EmbeddedResource::new(embedded.to_rmcp());
                block.annotations = annotations;
                r::ContentBlock::Resource(block)
            }
        }
    }
}

impl Annotations {
    fn to_rmcp(&self, version: ProtocolVersion) -> r::Annotations {
        let mut annotations = r::Annotations::default();
        if !self.audience.is_empty() {
            annotations.audience = Some(self.audience.iter().map(|role| role.to_rmcp()).collect());
        }
        // A priority is clamped to 0..=1 when set, so it fits an f32.
        #[allow(clippy::cast_possible_truncation)]
        {
            annotations.priority = self.priority.map(|p| p as f32);
        }
        // As our serializer: older revisions do not define it.
        if version.has_titles() {
            annotations.last_modified.clone_from(&self.last_modified);
        }
        annotations
    }
}

impl ResourceLink {
    fn to_rmcp(&self) -> r::Resource {
        let mut resource = r::Resource::new(self.uri.clone(), self.name.clone());
        resource.title.clone_from(&self.title);
        resource.description.clone_from(&self.description);
        resource.mime_type.clone_from(&self.mime_type);
        resource.size = self.size;
        resource
    }
}

impl EmbeddedResource {
    fn to_rmcp(&self) -> r::ResourceContents {
        let (uri, mime_type) = (self.uri.clone(), self.mime_type.clone());
        match &self.body {
            ResourceBody::Text(text) => r::ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text: text.clone(),
                meta: None,
            },
            ResourceBody::Blob(blob) => r::ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob: blob.clone(),
                meta: None,
            },
        }
    }
}

impl Role {
    pub(crate) fn to_rmcp(self) -> r::Role {
        match self {
            Self::User => r::Role::User,
            Self::Assistant => r::Role::Assistant,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
                assert_eq!(wire(&content.to_rmcp(version)), ours, "{content:?}");
            }
        }
    }

    #[test]
    fn roles_convert() {
        assert_eq!(Role::User.to_rmcp(), r::Role::User);
        assert_eq!(Role::Assistant.to_rmcp(), r::Role::Assistant);
        assert_eq!(
            serde_json::to_value(Role::Assistant.to_rmcp()).unwrap(),
            json!("assistant")
        );
    }
}
