use std::fmt;

/// A published MCP protocol revision this server speaks.
///
/// Revisions are ordered by date, so feature checks read as comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// `2024-11-05`, the first revision.
    V2024_11_05,
    /// `2025-03-26`: audio content, completions capability, batches.
    V2025_03_26,
    /// `2025-06-18`: titles, `_meta`, resource links; batches removed.
    V2025_06_18,
    /// `2025-11-25`: icons; the last revision with an `initialize` handshake.
    V2025_11_25,
    /// `2026-07-28`: no handshake; every request carries its revision and
    /// the client's capabilities in `_meta`, and is served statelessly.
    V2026_07_28,
}

impl ProtocolVersion {
    /// The newest revision with an `initialize` handshake, answered when a
    /// client's `initialize` asks for one we do not know.
    pub const LATEST: Self = Self::V2025_11_25;

    /// The newest revision, served statelessly.
    pub const MODERN: Self = Self::V2026_07_28;

    /// Every supported revision, oldest first.
    pub const ALL: [Self; 5] = [
        Self::V2024_11_05,
        Self::V2025_03_26,
        Self::V2025_06_18,
        Self::V2025_11_25,
        Self::V2026_07_28,
    ];

    /// The revisions an `initialize` can negotiate, oldest first.
    pub const LEGACY: [Self; 4] = [
        Self::V2024_11_05,
        Self::V2025_03_26,
        Self::V2025_06_18,
        Self::V2025_11_25,
    ];

    /// The revision's date string, as sent on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V2024_11_05 => "2024-11-05",
            Self::V2025_03_26 => "2025-03-26",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }

    /// Parses a revision date string; `None` if unsupported.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// Whether requests of this revision carry their own `_meta` and are
    /// served statelessly, with no `initialize`.
    pub const fn is_modern(self) -> bool {
        matches!(self, Self::V2026_07_28)
    }

    /// The revision a handshake asking for `requested` negotiates: that
    /// one if it is served, else the latest; a handshake never negotiates
    /// the stateless revision.
    pub(crate) fn negotiate(requested: &str) -> Self {
        Self::parse(requested)
            .filter(|v| !v.is_modern())
            .unwrap_or(Self::LATEST)
    }

    /// Only 2025-03-26 allows JSON-RPC batches.
    pub(crate) fn allows_batches(self) -> bool {
        self == Self::V2025_03_26
    }

    /// Titles, `_meta`, resource links and `lastModified` exist from 2025-06-18.
    pub(crate) fn has_titles(self) -> bool {
        self >= Self::V2025_06_18
    }

    /// Icons on prompts and the server exist from 2025-11-25.
    pub(crate) fn has_icons(self) -> bool {
        self >= Self::V2025_11_25
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
