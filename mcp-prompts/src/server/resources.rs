//! `resources/list`, served when the server is told to
//! ([`Server::serve_resources`](crate::Server::serve_resources)): the
//! resources the server offers, on one page. No kind of resource is
//! served yet: skills will be the first, as a variant of [`Resource`].

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::error::{Error, excerpt};
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::{Answer, Cached};

/// A resource the server offers. None yet.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Resource {}

impl Serialize for Resource {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

/// A `resources/list` result: the resources of one page.
pub(crate) struct ResourcePage {
    resources: Vec<Resource>,
}

impl ResourcePage {
    /// The page's resources.
    pub(crate) fn into_resources(self) -> Vec<Resource> {
        self.resources
    }
}

impl Answer for ResourcePage {
    /// The same for everyone: 2026-07-28 caching hints, as on every
    /// listing.
    fn cached(&self) -> Cached {
        Cached::Shared
    }

    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        self
    }
}

impl Serialize for ResourcePage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("resources", &self.resources)?;
        map.end()
    }
}

/// The page of resources a cursor points at: the first without one; an
/// error for one never handed out (there is one page).
pub(crate) fn list(cursor: Option<&str>) -> Result<ResourcePage, Error> {
    if let Some(cursor) = cursor {
        return Err(Error::invalid_params(format!(
            "invalid cursor: `{}`",
            excerpt(cursor)
        )));
    }
    Ok(ResourcePage {
        resources: Vec::new(),
    })
}
