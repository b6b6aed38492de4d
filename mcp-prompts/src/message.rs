//! Prompt messages and the conversion of a prompt function's return value.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::content::{Content, Role, Versioned};
use crate::error::Error;
use crate::protocol::ProtocolVersion;

/// One message of a prompt: a role and one content block.
///
/// ```
/// use mcp_prompts::{Content, Message, Role};
///
/// let ask = Message::user("Summarize this.");
/// let answer = Message::assistant(Content::text("Sure."));
/// assert_eq!(ask.role(), Role::User);
/// assert_eq!(answer.content().as_text(), Some("Sure."));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    role: Role,
    content: Content,
}

impl Message {
    /// A message with any role.
    pub fn new(role: Role, content: impl Into<Content>) -> Self {
        Self {
            role,
            content: content.into(),
        }
    }

    /// A message from the user.
    pub fn user(content: impl Into<Content>) -> Self {
        Self::new(Role::User, content)
    }

    /// A message from the assistant.
    pub fn assistant(content: impl Into<Content>) -> Self {
        Self::new(Role::Assistant, content)
    }

    /// The role.
    pub fn role(&self) -> Role {
        self.role
    }

    /// The content block.
    pub fn content(&self) -> &Content {
        &self.content
    }
}

/// The full result of getting a prompt: an optional description and the messages.
///
/// When `description` is not set, the prompt's own description is sent.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PromptResult {
    /// Overrides the prompt's description for this result.
    pub description: Option<String>,
    /// The messages, in order.
    pub messages: Vec<Message>,
}

impl PromptResult {
    /// A result with these messages.
    pub fn new(messages: impl IntoIterator<Item = Message>) -> Self {
        Self {
            description: None,
            messages: messages.into_iter().collect(),
        }
    }

    /// Sets the description sent with this result.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Checks the result may be sent: every block exists in `version` (a
    /// block the client's revision lacks is an internal error, never sent
    /// silently), and its size on the wire, about (its description, and
    /// each message's [`wire_bytes`](crate::content::Content::wire_bytes)),
    /// is at most `max_bytes` ([`Server::max_result_bytes`](crate::Server::max_result_bytes);
    /// past it, -32602). One pass over the messages.
    pub(crate) fn check(&self, version: ProtocolVersion, max_bytes: usize) -> Result<(), Error> {
        let mut bytes = self.description.as_ref().map_or(0, String::len);
        for message in &self.messages {
            let since = message.content.since();
            if version < since {
                return Err(Error::internal(format!(
                    "the prompt returned `{}` content, which needs protocol {since} or newer; this session uses {version}",
                    message.content.type_name()
                )));
            }
            bytes = bytes.saturating_add(message.content.wire_bytes());
        }
        if bytes > max_bytes {
            return Err(Error::result_too_large(max_bytes));
        }
        Ok(())
    }

    /// The result as the client sees it, with the fallback description.
    pub(crate) fn versioned<'a>(
        &'a self,
        fallback_description: Option<&'a str>,
        version: ProtocolVersion,
    ) -> VersionedResult<'a> {
        VersionedResult {
            description: self.description.as_deref().or(fallback_description),
            messages: &self.messages,
            version,
        }
    }
}

pub(crate) struct VersionedResult<'a> {
    description: Option<&'a str>,
    messages: &'a [Message],
    version: ProtocolVersion,
}

impl Serialize for VersionedResult<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Messages<'a>(&'a [Message], ProtocolVersion);
        impl Serialize for Messages<'_> {
            // Called once an answer: inlined, it costs no call (LLVM's
            // choice moved with unrelated code, by 0.7% of a request).
            #[inline]
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.len()))?;
                for message in self.0 {
                    seq.serialize_element(&Versioned::new(message, self.1))?;
                }
                seq.end()
            }
        }
        let mut map = s.serialize_map(None)?;
        if let Some(description) = self.description {
            map.serialize_entry("description", description)?;
        }
        map.serialize_entry("messages", &Messages(self.messages, self.version))?;
        map.end()
    }
}

impl Serialize for Versioned<'_, Message> {
    // Inlined into the listing's and result's map entries: without the
    // hint, a change elsewhere in the crate moved it out of line and cost
    // stdio `prompts/get` 1.8% more instructions (callgrind).
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        let (message, version) = (self.value(), self.version());
        map.serialize_entry("role", &message.role)?;
        map.serialize_entry("content", &message.content.for_version(version))?;
        map.end()
    }
}

/// A value a `#[prompt]` function may return.
///
/// Implemented for `String` and `&'static str` (one user text message),
/// [`Message`], `Vec<Message>`, [`PromptResult`], and `Result<T, E>` of
/// those where `E` converts into [`Error`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[prompt]` function",
    label = "not a prompt result",
    note = "return `String`, `Message`, `Vec<Message>` or `PromptResult`, or a `Result` of one of these whose error converts into `mcp_prompts::Error`; or implement `mcp_prompts::IntoPromptResult` for `{Self}`"
)]
pub trait IntoPromptResult {
    /// Converts the value into the result sent to the client.
    fn into_prompt_result(self) -> Result<PromptResult, Error>;
}

impl IntoPromptResult for PromptResult {
    fn into_prompt_result(self) -> Result<PromptResult, Error> {
        Ok(self)
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<PromptResult, Error> {
        Message::user(self).into_prompt_result()
    }
}

impl IntoPromptResult for &'static str {
    fn into_prompt_result(self) -> Result<PromptResult, Error> {
        Message::user(self).into_prompt_result()
    }
}

impl IntoPromptResult for Message {
    fn into_prompt_result(self) -> Result<PromptResult, Error> {
        Ok(PromptResult::new([self]))
    }
}

impl IntoPromptResult for Vec<Message> {
    fn into_prompt_result(self) -> Result<PromptResult, Error> {
        Ok(PromptResult {
            description: None,
            messages: self,
        })
    }
}

impl<T: IntoPromptResult, E: Into<Error>> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<PromptResult, Error> {
        self.map_err(Into::into)?.into_prompt_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{BLOCK_BYTES, ResourceLink};

    #[test]
    fn the_size_limit_counts_what_goes_on_the_wire() {
        let version = ProtocolVersion::LATEST;
        let one = PromptResult::new([Message::user("x".repeat(100))]);
        assert!(one.check(version, 100 + BLOCK_BYTES).is_ok());
        assert!(one.check(version, 99 + BLOCK_BYTES).is_err());
        // Many empty messages are not free.
        let empty = PromptResult::new(vec![Message::user(""); 1_000]);
        let error = empty.check(version, 1_000 * BLOCK_BYTES - 1).unwrap_err();
        assert_eq!(error.code(), -32602);
        // Nor are a link's fields, or the result's description.
        let link = ResourceLink::new("file:///a", "n".repeat(500));
        let linked = PromptResult::new([Message::user(Content::resource_link(link))]);
        assert!(linked.check(version, 500 + BLOCK_BYTES).is_err());
        let described = PromptResult::new([Message::user("")]).with_description("d".repeat(500));
        assert!(described.check(version, 500).is_err());
    }
}
