//! What the server tells about itself, typed: its info, the capabilities
//! it declares, and the results of `initialize` and `server/discover`,
//! each as the revision asked for shows it. The rmcp adapter declares the
//! same capabilities from here.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::presentation::Icon;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::{Answer, Cached, ResultMeta};
use crate::protocol::modern::supported_versions;

/// The server as `initialize` and `server/discover` describe it.
pub(crate) struct Info {
    pub(super) name: String,
    pub(super) version: String,
    pub(super) title: Option<String>,
    pub(super) icons: Vec<Icon>,
    pub(super) instructions: Option<String>,
    pub(super) declared: Declared,
    /// `prompts.listChanged`: the catalog can change, and changes are
    /// announced (to sessions, or on `subscriptions/listen`).
    pub(super) list_changed: bool,
}

/// The capabilities a server may or may not declare; `prompts` and
/// `logging` always are.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Declared {
    /// `completions`: `completion/complete` is served.
    pub(super) completions: bool,
    /// `tools`: the prompt tools are served.
    pub(super) tools: bool,
    /// Which resources are served, if any.
    pub(super) resources: Resources,
    /// `resources.listChanged`: skills come from folders, watched, and
    /// their changes are announced.
    pub(super) skills_live: bool,
}

/// The resources a server serves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Resources {
    /// None: the resource methods are not found.
    #[default]
    Off,
    /// The resource methods, with the resources there are.
    Served,
    /// Skills (the extension), their files served as resources.
    Skills,
}

impl Declared {
    /// `completions`: `completion/complete` is served.
    pub(crate) fn completions(self) -> bool {
        self.completions
    }

    /// `resources.listChanged`: skills come from folders, watched, and
    /// their changes are announced.
    pub(crate) fn skills_live(self) -> bool {
        self.skills_live
    }

    /// `resources`: the resource methods are served.
    pub(crate) fn resources(self) -> bool {
        self.resources != Resources::Off
    }

    /// The skills extension: skills are served, and their files as
    /// resources.
    pub(crate) fn skills(self) -> bool {
        self.resources == Resources::Skills
    }
}

/// `serverInfo` as a revision shows it; with its icons only where asked
/// (not in the server info every 2026-07-28 result carries).
pub(crate) struct ServerInfo<'a> {
    pub(super) info: &'a Info,
    pub(super) version: ProtocolVersion,
    pub(super) icons: bool,
}

impl Serialize for ServerInfo<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Self {
            info,
            version,
            icons,
        } = *self;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", &info.name)?;
        if let (true, Some(title)) = (version.has_titles(), &info.title) {
            map.serialize_entry("title", title)?;
        }
        map.serialize_entry("version", &info.version)?;
        if icons && version.has_icons() && !info.icons.is_empty() {
            map.serialize_entry("icons", &info.icons)?;
        }
        map.end()
    }
}

/// The capabilities declared, in a revision's terms.
struct Capabilities<'a> {
    info: &'a Info,
    version: ProtocolVersion,
}

/// `{}`, as a declared capability with no settings reads.
#[derive(Serialize)]
struct Declares {}

/// `prompts` or `resources`, with `listChanged` when changes are announced.
#[derive(Serialize)]
struct ListChanged {
    #[serde(
        rename = "listChanged",
        skip_serializing_if = "<&bool as std::ops::Not>::not"
    )]
    list_changed: bool,
}

impl Serialize for Capabilities<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let declared = self.info.declared;
        let mut map = s.serialize_map(None)?;
        let prompts = ListChanged {
            list_changed: self.info.list_changed,
        };
        map.serialize_entry("prompts", &prompts)?;
        map.serialize_entry("logging", &Declares {})?;
        // 2024-11-05 has the method but no capability to declare it.
        if declared.completions() && self.version != ProtocolVersion::V2024_11_05 {
            map.serialize_entry("completions", &Declares {})?;
        }
        // The two prompt tools never change, whatever the catalog does.
        if declared.tools {
            map.serialize_entry("tools", &Declares {})?;
        }
        // Skills from watched folders: their changes are announced.
        if declared.resources() {
            let resources = ListChanged {
                list_changed: declared.skills_live(),
            };
            map.serialize_entry("resources", &resources)?;
        }
        // Extensions came with 2026-07-28; before it, skills' files are
        // plain resources.
        if declared.skills() && self.version.is_modern() {
            map.serialize_entry("extensions", &SkillsExtension)?;
        }
        map.end()
    }
}

/// `extensions`, with the skills extension and its directory reads.
struct SkillsExtension;

impl Serialize for SkillsExtension {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Settings {
            #[serde(rename = "directoryRead")]
            directory_read: bool,
        }
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(
            crate::skills::EXTENSION,
            &Settings {
                directory_read: true,
            },
        )?;
        map.end()
    }
}

/// The `initialize` result for the revision negotiated.
pub(crate) struct InitializeResult<'a> {
    pub(super) info: &'a Info,
    pub(super) version: ProtocolVersion,
}

impl Serialize for InitializeResult<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (info, version) = (self.info, self.version);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("protocolVersion", version.as_str())?;
        let capabilities = Capabilities { info, version };
        map.serialize_entry("capabilities", &capabilities)?;
        let server_info = ServerInfo {
            info,
            version,
            icons: true,
        };
        map.serialize_entry("serverInfo", &server_info)?;
        if let Some(instructions) = &info.instructions {
            map.serialize_entry("instructions", instructions)?;
        }
        map.end()
    }
}

impl Answer for InitializeResult<'_> {
    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

/// The `server/discover` result (2026-07-28): the revisions served, the
/// capabilities, the instructions; the server's info, with its icons, in
/// `_meta`, and caching hints beside.
pub(crate) struct DiscoverResult<'a> {
    pub(super) info: &'a Info,
}

impl Serialize for DiscoverResult<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let info = self.info;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("supportedVersions", &supported_versions())?;
        let capabilities = Capabilities {
            info,
            version: ProtocolVersion::MODERN,
        };
        map.serialize_entry("capabilities", &capabilities)?;
        if let Some(instructions) = &info.instructions {
            map.serialize_entry("instructions", instructions)?;
        }
        map.end()
    }
}

impl Answer for DiscoverResult<'_> {
    fn cached(&self) -> Cached {
        Cached::Shared
    }

    fn meta(&self) -> ResultMeta<'_> {
        ResultMeta::ServerInfoWithIcons
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}
