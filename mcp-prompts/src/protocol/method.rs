//! The method table: every request this server answers, the revisions that
//! have it, and the capability the server must declare for it. Dispatch,
//! the HTTP transport and the tests read it; a new method is one row here
//! and one arm where it is served.

/// A request method this server answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    /// `initialize` (params: `InitializeRequestParams`).
    Initialize,
    /// `ping` (no params).
    Ping,
    /// `prompts/list` (params: an optional `cursor`).
    PromptsList,
    /// `prompts/get` (params: `name`, `arguments`, and at 2026-07-28
    /// `inputResponses` and `requestState`).
    PromptsGet,
    /// `completion/complete` (params: `ref`, `argument`, `context`).
    CompletionComplete,
    /// `logging/setLevel` (params: `level`).
    LoggingSetLevel,
    /// `server/discover` (2026-07-28; no params beyond `_meta`).
    ServerDiscover,
    /// `subscriptions/listen` (2026-07-28; params: `notifications`).
    SubscriptionsListen,
    /// `tools/list`: the prompt tools, when the server offers them.
    ToolsList,
    /// `tools/call` (params: `name`, `arguments`, and at 2026-07-28
    /// `inputResponses` and `requestState`).
    ToolsCall,
}

/// What the server declares in its capabilities for a method to be served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Capability {
    Prompts,
    Completions,
    Logging,
    Tools,
}

impl Capability {
    /// Its key in the server's capabilities.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Prompts => "prompts",
            Self::Completions => "completions",
            Self::Logging => "logging",
            Self::Tools => "tools",
        }
    }
}

/// Where a method exists.
#[derive(Clone, Copy)]
struct Row {
    method: Method,
    name: &'static str,
    /// In the handshake revisions (2024-11-05 to 2025-11-25).
    sessions: bool,
    /// In 2026-07-28, served statelessly.
    stateless: bool,
    capability: Option<Capability>,
}

const fn row(
    method: Method,
    name: &'static str,
    sessions: bool,
    stateless: bool,
    capability: Option<Capability>,
) -> Row {
    Row {
        method,
        name,
        sessions,
        stateless,
        capability,
    }
}

/// The table. `initialize` and `logging/setLevel` left with the handshake;
/// `server/discover` and `subscriptions/listen` came with 2026-07-28.
const TABLE: [Row; 10] = [
    row(Method::Initialize, "initialize", true, false, None),
    row(Method::Ping, "ping", true, false, None),
    row(
        Method::PromptsList,
        "prompts/list",
        true,
        true,
        Some(Capability::Prompts),
    ),
    row(
        Method::PromptsGet,
        "prompts/get",
        true,
        true,
        Some(Capability::Prompts),
    ),
    row(
        Method::CompletionComplete,
        "completion/complete",
        true,
        true,
        Some(Capability::Completions),
    ),
    row(
        Method::LoggingSetLevel,
        "logging/setLevel",
        true,
        false,
        Some(Capability::Logging),
    ),
    row(Method::ServerDiscover, "server/discover", false, true, None),
    row(
        Method::SubscriptionsListen,
        "subscriptions/listen",
        false,
        true,
        Some(Capability::Prompts),
    ),
    row(
        Method::ToolsList,
        "tools/list",
        true,
        true,
        Some(Capability::Tools),
    ),
    row(
        Method::ToolsCall,
        "tools/call",
        true,
        true,
        Some(Capability::Tools),
    ),
];

impl Method {
    /// The method named `name`, if this server answers it in any revision.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        TABLE
            .iter()
            .find(|row| row.name == name)
            .map(|row| row.method)
    }

    fn row(self) -> Row {
        TABLE[self as usize]
    }

    /// The method's name on the wire.
    pub(crate) fn name(self) -> &'static str {
        self.row().name
    }

    /// Whether the handshake revisions have it.
    pub(crate) fn in_sessions(self) -> bool {
        self.row().sessions
    }

    /// Whether 2026-07-28 has it.
    pub(crate) fn in_stateless(self) -> bool {
        self.row().stateless
    }

    /// What the server must declare for it to be served.
    pub(crate) fn capability(self) -> Option<Capability> {
        self.row().capability
    }

    /// Whether a session serves it before `initialize` (every other
    /// method of a session is refused until then).
    pub(crate) fn before_initialize(self) -> bool {
        matches!(self, Self::Initialize | Self::Ping)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_order_of_the_enum_and_names_round_trip() {
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.method as usize, i, "{}", row.name);
            assert_eq!(Method::from_name(row.name), Some(row.method));
            assert_eq!(row.method.name(), row.name);
        }
        assert_eq!(Method::from_name("resources/list"), None);
    }

    #[test]
    fn each_era_has_its_methods() {
        let sessions: Vec<&str> = TABLE
            .iter()
            .filter(|r| r.sessions)
            .map(|r| r.name)
            .collect();
        let stateless: Vec<&str> = TABLE
            .iter()
            .filter(|r| r.stateless)
            .map(|r| r.name)
            .collect();
        assert_eq!(
            sessions,
            [
                "initialize",
                "ping",
                "prompts/list",
                "prompts/get",
                "completion/complete",
                "logging/setLevel",
                "tools/list",
                "tools/call"
            ]
        );
        assert_eq!(
            stateless,
            [
                "prompts/list",
                "prompts/get",
                "completion/complete",
                "server/discover",
                "subscriptions/listen",
                "tools/list",
                "tools/call"
            ]
        );
    }
}
