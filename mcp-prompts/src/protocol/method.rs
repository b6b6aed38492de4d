//! The method table: every request this server answers, as a type (its
//! name, the revisions that have it, the capability the server must
//! declare for it, the params it reads), and the notifications it heeds.
//! The server's one dispatch goes from a name to a row here, and from the
//! row to the row's handler; the HTTP transport and the tests read the
//! rows too. A new method is a type here, a row in [`TABLE`], and a
//! handler with an arm in the dispatch (ARCHITECTURE.md shows the steps).

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use super::params;
use crate::error::Error;

/// A request method this server answers, in the order of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    Initialize,
    Ping,
    PromptsList,
    PromptsGet,
    CompletionComplete,
    LoggingSetLevel,
    ServerDiscover,
    SubscriptionsListen,
    ToolsList,
    ToolsCall,
    ResourcesList,
    ResourcesRead,
    ResourcesDirectoryRead,
    SkillsList,
    SkillsGet,
}

/// What the server declares in its capabilities for a method to be served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Capability {
    Prompts,
    Completions,
    Logging,
    Tools,
    Resources,
    /// The skills extension (`io.modelcontextprotocol/skills`).
    Skills,
}

impl Capability {
    /// Its key in the server's capabilities.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Prompts => "prompts",
            Self::Completions => "completions",
            Self::Logging => "logging",
            Self::Tools => "tools",
            Self::Resources => "resources",
            Self::Skills => "skills",
        }
    }
}

/// What a request's params name, for its telemetry: the thing it is
/// about, which names its span when the caller may see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Subject {
    /// A prompt, by its `name`.
    Prompt,
    /// A tool, by its `name`.
    Tool,
    /// A prompt or a resource, by the `ref` a completion completes.
    Reference,
    /// A resource, by its `uri`, if the params have one (a method this
    /// server does not know included).
    Uri,
}

impl Subject {
    /// What the method named `name` is about.
    pub(crate) fn of(name: &str) -> Self {
        Method::from_name(name).map_or(Self::Uri, |method| method.row().subject)
    }
}

/// The revisions that have a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Revisions {
    /// The handshake revisions only (2024-11-05 to 2025-11-25).
    Handshake,
    /// 2026-07-28 only, served statelessly.
    Stateless,
    /// Every revision.
    All,
}

/// One request method, as a type: its row and how its params read. The
/// handler that serves it takes [`Params`](Self::Params) and gives its
/// own typed result, which one writer serializes per era.
pub(crate) trait Request {
    const METHOD: Method;
    const NAME: &'static str;
    const REVISIONS: Revisions;
    /// What the server must declare for it to be served, if anything.
    const GATE: Option<Capability>;
    /// What its params name, for its telemetry.
    const SUBJECT: Subject = Subject::Uri;
    /// Its params, borrowed from the request's text where they can be.
    type Params<'a>: Deserialize<'a>;

    /// Reads the request's `params`; absent params read as `{}`.
    fn params(raw: Option<&RawValue>) -> Result<Self::Params<'_>, Error> {
        let text = raw.map_or("{}", RawValue::get);
        serde_json::from_str(text).map_err(|err| Error::bad_params(&err))
    }
}

/// Declares a request type and its row.
macro_rules! request {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $revisions:ident, $gate:expr, $params:ty $(, $subject:ident)?) => {
        $(#[$doc])*
        pub(crate) enum $ty {}

        impl Request for $ty {
            const METHOD: Method = Method::$ty;
            const NAME: &'static str = $name;
            const REVISIONS: Revisions = Revisions::$revisions;
            const GATE: Option<Capability> = $gate;
            $(const SUBJECT: Subject = Subject::$subject;)?
            type Params<'a> = $params;
        }
    };
}

request!(
    /// Opens a session; left with the handshake.
    Initialize, "initialize", Handshake, None, params::InitializeParams<'a>
);
request!(Ping, "ping", Handshake, None, IgnoredAny);
request!(
    PromptsList,
    "prompts/list",
    All,
    Some(Capability::Prompts),
    params::ListParams<'a>
);
request!(
    /// `name`, `arguments`, and at 2026-07-28 `inputResponses` and `requestState`.
    PromptsGet, "prompts/get", All, Some(Capability::Prompts), params::GetParams<'a>, Prompt
);
request!(
    CompletionComplete,
    "completion/complete",
    All,
    Some(Capability::Completions),
    params::CompleteParams<'a>,
    Reference
);
request!(
    LoggingSetLevel,
    "logging/setLevel",
    Handshake,
    Some(Capability::Logging),
    params::SetLevelParams<'a>
);
request!(
    ServerDiscover,
    "server/discover",
    Stateless,
    None,
    IgnoredAny
);
request!(
    SubscriptionsListen,
    "subscriptions/listen",
    Stateless,
    Some(Capability::Prompts),
    params::ListenParams
);
request!(
    /// The prompt tools, when the server offers them.
    ToolsList, "tools/list", All, Some(Capability::Tools), params::ListParams<'a>
);
request!(
    ToolsCall,
    "tools/call",
    All,
    Some(Capability::Tools),
    params::CallParams<'a>,
    Tool
);
request!(
    /// Off unless the server is told to serve resources.
    ResourcesList, "resources/list", All, Some(Capability::Resources), params::ListParams<'a>
);

request!(
    /// A resource's contents: a skill's file.
    ResourcesRead, "resources/read", All, Some(Capability::Resources), params::UriParams<'a>
);
request!(
    /// A directory resource's direct children (the skills extension).
    ResourcesDirectoryRead,
    "resources/directory/read",
    All,
    Some(Capability::Skills),
    params::DirectoryParams<'a>
);
request!(
    /// The skills extension's listing.
    SkillsList, "skills/list", All, Some(Capability::Skills), params::ListParams<'a>
);
request!(
    /// One skill, by its `SKILL.md`'s URI.
    SkillsGet, "skills/get", All, Some(Capability::Skills), params::UriParams<'a>
);

/// Where a method exists and what gates it.
#[derive(Clone, Copy)]
pub(crate) struct Row {
    method: Method,
    name: &'static str,
    revisions: Revisions,
    gate: Option<Capability>,
    subject: Subject,
}

const fn row<R: Request>() -> Row {
    Row {
        method: R::METHOD,
        name: R::NAME,
        revisions: R::REVISIONS,
        gate: R::GATE,
        subject: R::SUBJECT,
    }
}

/// The table, in the order of [`Method`]. `initialize`, `ping` and
/// `logging/setLevel` left with the handshake; `server/discover` and
/// `subscriptions/listen` came with 2026-07-28.
const TABLE: [Row; 15] = [
    row::<Initialize>(),
    row::<Ping>(),
    row::<PromptsList>(),
    row::<PromptsGet>(),
    row::<CompletionComplete>(),
    row::<LoggingSetLevel>(),
    row::<ServerDiscover>(),
    row::<SubscriptionsListen>(),
    row::<ToolsList>(),
    row::<ToolsCall>(),
    row::<ResourcesList>(),
    row::<ResourcesRead>(),
    row::<ResourcesDirectoryRead>(),
    row::<SkillsList>(),
    row::<SkillsGet>(),
];

impl Method {
    /// The method named `name`, if this server answers it in any revision.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        TABLE
            .iter()
            .find(|row| row.name == name)
            .map(|row| row.method)
    }

    fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// The method's name on the wire.
    pub(crate) fn name(self) -> &'static str {
        self.row().name
    }

    /// Whether the handshake revisions have it.
    pub(crate) fn in_handshake(self) -> bool {
        self.row().revisions != Revisions::Stateless
    }

    /// Whether 2026-07-28 has it.
    pub(crate) fn in_stateless(self) -> bool {
        self.row().revisions != Revisions::Handshake
    }

    /// What the server must declare for it to be served.
    pub(crate) fn capability(self) -> Option<Capability> {
        self.row().gate
    }

    /// Whether a session serves it before `initialize` (every other
    /// method of a session is refused until then).
    pub(crate) fn before_initialize(self) -> bool {
        matches!(self, Self::Initialize | Self::Ping)
    }
}

/// A notification this server heeds; any other is ignored, as the
/// specification says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Notification {
    /// `notifications/cancelled`: stop the request it names.
    Cancelled,
    /// `notifications/initialized`: nothing to do, as requests are served
    /// as soon as `initialize` is answered.
    Initialized,
}

impl Notification {
    const NAMES: [(Self, &'static str); 2] = [
        (Self::Cancelled, "notifications/cancelled"),
        (Self::Initialized, "notifications/initialized"),
    ];

    /// The notification named `name`, if this server heeds it.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(n, _)| *n)
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
        assert_eq!(Method::from_name("resources/subscribe"), None);
        for (notification, name) in Notification::NAMES {
            assert_eq!(Notification::from_name(name), Some(notification));
        }
    }

    #[test]
    fn each_era_has_its_methods() {
        let sessions: Vec<&str> = TABLE
            .iter()
            .filter(|r| r.method.in_handshake())
            .map(|r| r.name)
            .collect();
        let stateless: Vec<&str> = TABLE
            .iter()
            .filter(|r| r.method.in_stateless())
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
                "tools/call",
                "resources/list",
                "resources/read",
                "resources/directory/read",
                "skills/list",
                "skills/get"
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
                "tools/call",
                "resources/list",
                "resources/read",
                "resources/directory/read",
                "skills/list",
                "skills/get"
            ]
        );
    }
}
