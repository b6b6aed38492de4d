//! Every bound the server keeps on what a client can make it hold or send,
//! in one place. The transports read them from here; the guide's security
//! chapter (`guide/security.md`) lists them with their defaults.

use std::time::Duration;

/// The default limit on one incoming message: 4 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// The default limit on the messages in one JSON-RPC batch.
pub const DEFAULT_MAX_BATCH_ITEMS: usize = 100;

/// The default limit on the responses to one batch, together: 4 MiB.
pub const DEFAULT_MAX_BATCH_RESPONSE_BYTES: usize = 4 * 1024 * 1024;

/// The default limit on requests of one stream connection being worked on
/// at once.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 64;

/// The default limit on response bytes of one stream connection waiting
/// for the client to read them: 4 MiB.
pub const DEFAULT_MAX_PENDING_OUTPUT_BYTES: usize = 4 * 1024 * 1024;

/// The default limit on a connection's requests waiting for the client to
/// answer a question (`elicitation/create`) at once: 16.
pub const DEFAULT_MAX_WAITING: usize = 16;

/// How long a question to the client waits for its answer by default: 10
/// minutes. Then the prompt sees a decline.
pub const DEFAULT_QUESTION_TIMEOUT: Duration = Duration::from_secs(600);

/// The default limit on the text of one prompt's result, its messages
/// together: 4 MiB.
pub const DEFAULT_MAX_RESULT_BYTES: usize = 4 * 1024 * 1024;

/// The default limit on `subscriptions/listen` requests open at once on
/// one connection: 16.
pub const DEFAULT_MAX_LISTENS: usize = 16;

/// The default limit on the bytes of answers the server holds for their
/// clients until they read them, across every connection: 256 MiB.
pub const DEFAULT_MAX_UNSENT_BYTES: usize = 256 * 1024 * 1024;

/// How many entries one `skills/list`, `resources/list` or
/// `resources/directory/read` page holds by default: 50. A skill's entry
/// lists each of its files with digest and size, about 150 bytes a file:
/// a page of skills of 10 files each takes about 100 KiB, of 50 files each
/// about 400 KiB. A resource's entry takes about 150 bytes, a `SKILL.md`'s
/// at most about 4 KiB (its description has at most 1,024 characters): a
/// page of resources stays under 200 KiB.
pub const DEFAULT_SKILLS_PAGE_SIZE: usize = 50;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub(super) message_bytes: usize,
    pub(super) batch_items: usize,
    pub(super) batch_response_bytes: usize,
    pub(super) in_flight: usize,
    pub(super) pending_output_bytes: usize,
    pub(super) waiting: usize,
    pub(super) question_timeout: Duration,
    pub(super) listens: usize,
    pub(super) result_bytes: usize,
    pub(super) unsent_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            batch_items: DEFAULT_MAX_BATCH_ITEMS,
            batch_response_bytes: DEFAULT_MAX_BATCH_RESPONSE_BYTES,
            in_flight: DEFAULT_MAX_IN_FLIGHT,
            pending_output_bytes: DEFAULT_MAX_PENDING_OUTPUT_BYTES,
            waiting: DEFAULT_MAX_WAITING,
            question_timeout: DEFAULT_QUESTION_TIMEOUT,
            listens: DEFAULT_MAX_LISTENS,
            result_bytes: DEFAULT_MAX_RESULT_BYTES,
            unsent_bytes: DEFAULT_MAX_UNSENT_BYTES,
        }
    }
}

// What a transport reads: how much it may take in and hold.
impl Limits {
    /// The longest message read, in bytes.
    pub(crate) fn message_bytes(&self) -> usize {
        self.message_bytes
    }

    /// The most requests a connection works on at once.
    pub(crate) fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// The most output bytes queued for a slow reader.
    pub(crate) fn pending_output_bytes(&self) -> usize {
        self.pending_output_bytes
    }

    /// What a connection's requests may hold while they wait for the client.
    pub(crate) fn wait_bounds(&self) -> crate::context::WaitBounds {
        crate::context::WaitBounds::new(self.waiting, self.question_timeout)
    }
}
