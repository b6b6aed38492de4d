//! The skills extension's requests and the resources they are served as:
//! `skills/list`, `skills/get`, `resources/list`, `resources/read` and
//! `resources/directory/read`, each answered from the snapshot current
//! when it starts, as its caller may see it. Their answers may be large
//! (a skill's file), so each is held within the unsent budget always.

use super::handler::{Handled, Handler, Handling};
use super::outcome::Held;
use crate::protocol::method::{
    ResourcesDirectoryRead, ResourcesList, ResourcesRead, SkillsGet, SkillsList,
};
use crate::protocol::params::{DirectoryParams, ListParams, UriParams};
use crate::skills::answers::{ReadResult, ResourceList, SkillList, SkillResult};
use crate::skills::view::View;

/// The skills as the request's caller sees them.
fn view(cx: &Handling<'_>) -> View {
    cx.service().skills().view(cx.access())
}

impl Handler for SkillsList {
    type Result = SkillList;
    const HELD: Held = Held::Always;

    fn handle<'a>(cx: &Handling<'a>, p: ListParams<'a>) -> Handled<SkillList> {
        Handled::Now(view(cx).list(p.cursor()))
    }
}

impl Handler for SkillsGet {
    type Result = SkillResult;
    const HELD: Held = Held::Always;

    fn handle<'a>(cx: &Handling<'a>, p: UriParams<'a>) -> Handled<SkillResult> {
        Handled::Now(view(cx).get(p.uri()))
    }
}

impl Handler for ResourcesList {
    type Result = ResourceList;
    const HELD: Held = Held::Always;

    fn handle<'a>(cx: &Handling<'a>, p: ListParams<'a>) -> Handled<ResourceList> {
        Handled::Now(view(cx).resources(p.cursor()))
    }
}

impl Handler for ResourcesRead {
    type Result = ReadResult;
    const HELD: Held = Held::Always;

    fn handle<'a>(cx: &Handling<'a>, p: UriParams<'a>) -> Handled<ReadResult> {
        Handled::Now(view(cx).read(p.uri(), cx.version()))
    }
}

impl Handler for ResourcesDirectoryRead {
    type Result = ResourceList;
    const HELD: Held = Held::Always;

    fn handle<'a>(cx: &Handling<'a>, p: DirectoryParams<'a>) -> Handled<ResourceList> {
        Handled::Now(view(cx).read_directory(p.uri(), p.cursor()))
    }
}
