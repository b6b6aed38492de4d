//! Content blocks a prompt message carries, serialized per protocol revision,
//! and the roles: a message is from one, an annotation names its audience.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::protocol::ProtocolVersion;

/// One content block of a [`Message`](crate::Message).
///
/// ```
/// use mcp_prompts::{Annotations, Content, Role};
///
/// let text = Content::text("hello");
/// let image = Content::image(&[0x89, b'P', b'N', b'G'], "image/png");
/// let doc = Content::embedded_text("file:///notes.md", "text/markdown", "# Notes")
///     .with_annotations(Annotations::new().audience([Role::User]).priority(0.8));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    kind: ContentKind,
    annotations: Option<Annotations>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ContentKind {
    Text(String),
    Image { data: String, mime_type: String },
    Audio { data: String, mime_type: String },
    ResourceLink(ResourceLink),
    Resource(EmbeddedResource),
}

/// A link to a resource the client can fetch (revision 2025-06-18 and later).
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceLink {
    uri: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    size: Option<u64>,
}

impl ResourceLink {
    /// The URI linked to (read by other modules' tests).
    #[cfg(test)]
    pub(crate) fn uri(&self) -> &str {
        &self.uri
    }

    /// A link with the required URI and name.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
        }
    }

    /// Sets the display title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the size in bytes.
    pub fn size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EmbeddedResource {
    uri: String,
    mime_type: Option<String>,
    body: ResourceBody,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ResourceBody {
    Text(String),
    /// Base64-encoded.
    Blob(String),
}

/// Who a message is from. MCP prompts know only these two roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// A role of the template syntax, which knows no serde and no MCP and
    /// so has its own enum (kept out of the public API).
    pub(crate) fn of_template(role: mcp_prompts_template::Role) -> Self {
        match role {
            mcp_prompts_template::Role::User => Self::User,
            mcp_prompts_template::Role::Assistant => Self::Assistant,
        }
    }
}

/// Hints for the client about how to use a content block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotations {
    audience: Vec<Role>,
    priority: Option<f64>,
    last_modified: Option<String>,
}

impl Annotations {
    /// No annotations yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Who the content is for.
    pub fn audience(mut self, roles: impl IntoIterator<Item = Role>) -> Self {
        self.audience = roles.into_iter().collect();
        self
    }

    /// How important the content is, from 0 (least) to 1 (most); clamped.
    pub fn priority(mut self, priority: f64) -> Self {
        self.priority = Some(priority.clamp(0.0, 1.0));
        self
    }

    /// When the content last changed, as an ISO 8601 timestamp
    /// (sent from revision 2025-06-18 on).
    pub fn last_modified(mut self, timestamp: impl Into<String>) -> Self {
        self.last_modified = Some(timestamp.into());
        self
    }
}

/// What a content block's JSON takes beyond what it carries, about:
/// `{"role":"assistant","content":{"type":"resource_link",..}}`, keys
/// and annotations included. Counted so that a result of many small
/// messages is bounded by its size on the wire, not by its text alone.
pub(crate) const BLOCK_BYTES: usize = 96;

// What our writer writes and the rmcp adapter reads: a plain block
// converts field by field.
impl Content {
    pub(crate) fn kind(&self) -> &ContentKind {
        &self.kind
    }

    pub(crate) fn annotations(&self) -> Option<&Annotations> {
        self.annotations.as_ref()
    }
}

impl Content {
    /// About the bytes it takes on the wire, what a result's size limit
    /// counts: its text and data, its names, URIs and MIME types, and a
    /// block's own JSON (braces, keys, annotations) as [`BLOCK_BYTES`].
    /// Escapes are not counted: they at most double a text, and the cap
    /// is for memory, not exact.
    pub(crate) fn wire_bytes(&self) -> usize {
        let opt = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        let carried = match &self.kind {
            ContentKind::Text(text) => text.len(),
            ContentKind::Image { data, mime_type } | ContentKind::Audio { data, mime_type } => {
                data.len() + mime_type.len()
            }
            ContentKind::ResourceLink(link) => {
                link.uri.len()
                    + link.name.len()
                    + opt(&link.title)
                    + opt(&link.description)
                    + opt(&link.mime_type)
            }
            ContentKind::Resource(resource) => {
                let body = match &resource.body {
                    ResourceBody::Text(text) | ResourceBody::Blob(text) => text.len(),
                };
                resource.uri.len() + opt(&resource.mime_type) + body
            }
        };
        let annotated = self
            .annotations
            .as_ref()
            .map_or(0, |a| opt(&a.last_modified));
        BLOCK_BYTES + carried + annotated
    }

    fn of(kind: ContentKind) -> Self {
        Self {
            kind,
            annotations: None,
        }
    }

    /// Plain text.
    pub fn text(text: impl Into<String>) -> Self {
        Self::of(ContentKind::Text(text.into()))
    }

    /// An image from raw bytes; the base64 encoding is done here.
    pub fn image(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Self::image_base64(BASE64.encode(bytes), mime_type)
    }

    /// An image already encoded as base64.
    pub fn image_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::of(ContentKind::Image {
            data: data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// Audio from raw bytes (revision 2025-03-26 and later).
    pub fn audio(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Self::audio_base64(BASE64.encode(bytes), mime_type)
    }

    /// Audio already encoded as base64 (revision 2025-03-26 and later).
    pub fn audio_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::of(ContentKind::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// A link to a resource (revision 2025-06-18 and later).
    pub fn resource_link(link: ResourceLink) -> Self {
        Self::of(ContentKind::ResourceLink(link))
    }

    /// An embedded text resource.
    pub fn embedded_text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Self::of(ContentKind::Resource(EmbeddedResource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Text(text.into()),
        }))
    }

    /// An embedded binary resource from raw bytes; the base64 encoding is done here.
    pub fn embedded_blob(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: impl AsRef<[u8]>,
    ) -> Self {
        Self::of(ContentKind::Resource(EmbeddedResource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Blob(BASE64.encode(bytes)),
        }))
    }

    /// Attaches annotations.
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// The text, if this is a text block.
    pub fn as_text(&self) -> Option<&str> {
        match &self.kind {
            ContentKind::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The wire name of the block's type: `text`, `image`, `audio`,
    /// `resource_link` or `resource`.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            ContentKind::Text(_) => "text",
            ContentKind::Image { .. } => "image",
            ContentKind::Audio { .. } => "audio",
            ContentKind::ResourceLink(_) => "resource_link",
            ContentKind::Resource(_) => "resource",
        }
    }

    /// The first revision that has this block type.
    pub(crate) fn since(&self) -> ProtocolVersion {
        match self.kind {
            ContentKind::Audio { .. } => ProtocolVersion::V2025_03_26,
            ContentKind::ResourceLink(_) => ProtocolVersion::V2025_06_18,
            _ => ProtocolVersion::V2024_11_05,
        }
    }

    pub(crate) fn for_version(&self, version: ProtocolVersion) -> Versioned<'_, Self> {
        Versioned {
            value: self,
            version,
        }
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

/// A value serialized for one protocol revision.
pub(crate) struct Versioned<'a, T> {
    value: &'a T,
    version: ProtocolVersion,
}

impl<'a, T> Versioned<'a, T> {
    pub(crate) fn new(value: &'a T, version: ProtocolVersion) -> Self {
        Self { value, version }
    }

    pub(crate) fn value(&self) -> &'a T {
        self.value
    }

    pub(crate) fn version(&self) -> ProtocolVersion {
        self.version
    }
}

impl Serialize for Versioned<'_, Content> {
    // Inlined into the listing's and result's map entries: without the
    // hint, a change elsewhere in the crate moved it out of line and cost
    // stdio `prompts/get` 1.8% more instructions (callgrind).
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let content = self.value;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type", content.type_name())?;
        match &content.kind {
            ContentKind::Text(text) => map.serialize_entry("text", text)?,
            ContentKind::Image { data, mime_type } | ContentKind::Audio { data, mime_type } => {
                map.serialize_entry("data", data)?;
                map.serialize_entry("mimeType", mime_type)?;
            }
            ContentKind::ResourceLink(link) => {
                map.serialize_entry("uri", &link.uri)?;
                map.serialize_entry("name", &link.name)?;
                entry(&mut map, "title", link.title.as_ref())?;
                entry(&mut map, "description", link.description.as_ref())?;
                entry(&mut map, "mimeType", link.mime_type.as_ref())?;
                entry(&mut map, "size", link.size.as_ref())?;
            }
            ContentKind::Resource(resource) => map.serialize_entry("resource", resource)?,
        }
        if let Some(annotations) = content.annotations() {
            let versioned = Versioned {
                value: annotations,
                version: self.version,
            };
            map.serialize_entry("annotations", &versioned)?;
        }
        map.end()
    }
}

impl Serialize for EmbeddedResource {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("uri", &self.uri)?;
        entry(&mut map, "mimeType", self.mime_type.as_ref())?;
        match &self.body {
            ResourceBody::Text(text) => map.serialize_entry("text", text)?,
            ResourceBody::Blob(blob) => map.serialize_entry("blob", blob)?,
        }
        map.end()
    }
}

impl Serialize for Versioned<'_, Annotations> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let a = self.value;
        let mut map = s.serialize_map(None)?;
        if !a.audience.is_empty() {
            map.serialize_entry("audience", &a.audience)?;
        }
        entry(&mut map, "priority", a.priority.as_ref())?;
        // `lastModified` is an optional hint that older revisions do not
        // define; it is dropped for them rather than failing the prompt.
        if self.version.has_titles() {
            entry(&mut map, "lastModified", a.last_modified.as_ref())?;
        }
        map.end()
    }
}

fn entry<M: SerializeMap, T: Serialize>(
    map: &mut M,
    key: &'static str,
    value: Option<&T>,
) -> Result<(), M::Error> {
    match value {
        Some(value) => map.serialize_entry(key, value),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(content: &Content, version: ProtocolVersion) -> String {
        serde_json::to_string(&content.for_version(version)).unwrap()
    }

    #[test]
    fn serializes_each_block() {
        let v = ProtocolVersion::LATEST;
        assert_eq!(
            json(&Content::text("hi"), v),
            r#"{"type":"text","text":"hi"}"#
        );
        assert_eq!(
            json(&Content::image([1u8, 2, 3], "image/png"), v),
            r#"{"type":"image","data":"AQID","mimeType":"image/png"}"#
        );
        assert_eq!(
            json(&Content::embedded_text("test://x", "text/plain", "body"), v),
            r#"{"type":"resource","resource":{"uri":"test://x","mimeType":"text/plain","text":"body"}}"#
        );
        assert_eq!(
            json(
                &Content::embedded_blob("test://b", "application/octet-stream", [0u8]),
                v
            ),
            r#"{"type":"resource","resource":{"uri":"test://b","mimeType":"application/octet-stream","blob":"AA=="}}"#
        );
        assert_eq!(
            json(
                &Content::resource_link(ResourceLink::new("file:///a", "a").size(3)),
                v
            ),
            r#"{"type":"resource_link","uri":"file:///a","name":"a","size":3}"#
        );
    }

    #[test]
    fn annotations_follow_the_revision() {
        let content = Content::text("x").with_annotations(
            Annotations::new()
                .audience([Role::User, Role::Assistant])
                .priority(2.0)
                .last_modified("2025-01-12T15:00:58Z"),
        );
        assert_eq!(
            json(&content, ProtocolVersion::V2025_06_18),
            r#"{"type":"text","text":"x","annotations":{"audience":["user","assistant"],"priority":1.0,"lastModified":"2025-01-12T15:00:58Z"}}"#
        );
        assert_eq!(
            json(&content, ProtocolVersion::V2024_11_05),
            r#"{"type":"text","text":"x","annotations":{"audience":["user","assistant"],"priority":1.0}}"#
        );
    }
}
