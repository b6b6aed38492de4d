//! The id a client gave its request.

use std::fmt;

use serde_json::value::RawValue;

/// A JSON-RPC request id: a string or an integer, kept as the client sent it.
#[derive(Clone)]
pub struct RequestId(Box<RawValue>);

impl PartialEq for RequestId {
    fn eq(&self, other: &Self) -> bool {
        self.as_json() == other.as_json()
    }
}

impl Eq for RequestId {}

impl RequestId {
    pub(crate) fn new(raw: &RawValue) -> Self {
        Self(raw.to_owned())
    }

    pub(crate) fn raw(&self) -> &RawValue {
        &self.0
    }

    /// The id as JSON text: `7` or `"abc"`.
    pub fn as_json(&self) -> &str {
        self.0.get()
    }

    /// The id as an integer, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.get().parse().ok()
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_json())
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_json())
    }
}
