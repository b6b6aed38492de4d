//! Skills as prompts, for hosts that know prompts but no skills
//! (`Server::skills_as_prompts`): each skill served is also a prompt named
//! by its skill path with `/` as `.` (`acme.billing.refunds`), described by
//! the skill's description, with one optional argument, `request`. Its
//! messages carry the `SKILL.md` as an embedded resource under its
//! `skill://` URI, then (from revision 2025-06-18, which has them) a
//! resource link to each of the skill's own files, then the request.
//!
//! A skill's prompt yields its name to a prompt file's or a compiled
//! prompt, whichever came first: the catalog keeps it aside (and logs it,
//! naming both) while that prompt has the name.

use std::sync::Arc;

use crate::catalog::Prompts;
use crate::content::{Content, ResourceLink};
use crate::dynamic::{DynamicArgument, DynamicPrompt};
use crate::message::Message;
use crate::protocol::ProtocolVersion;
use crate::skills::set::Skill;
use crate::skills::{SkillSet, uri};

/// The skills' prompts now served in a catalog.
#[derive(Default)]
pub(crate) struct SkillPrompts(Vec<DynamicPrompt>);

impl SkillPrompts {
    /// Serves `set`'s skills as prompts of `prompts` from now on, in place
    /// of those served before: the problems of those left out (a name no
    /// prompt can have, or another skill's prompt's).
    pub(crate) fn sync(&mut self, prompts: &Prompts, set: &SkillSet) -> Vec<String> {
        let (wanted, mut problems) = prompts_of(set);
        let (now, taken) = prompts.sync_yielding_group(&self.0, wanted);
        self.0 = now;
        problems.extend(taken.iter().map(|(prompt, holder)| {
            format!(
                "{}: the skill's prompt `{}` is not served: {holder} has that name",
                prompt.origin(),
                prompt.name()
            )
        }));
        problems
    }
}

/// Where a skill's prompt finds what it shows.
enum Source {
    /// Read from the snapshot once.
    Kept(Shown),
    /// A generated skill: made anew at each `prompts/get`.
    Generated(Skill),
}

impl Source {
    fn shown(&self) -> Option<std::borrow::Cow<'_, Shown>> {
        match self {
            Self::Kept(shown) => Some(std::borrow::Cow::Borrowed(shown)),
            Self::Generated(skill) => {
                let files = skill.generate().unwrap_or_default();
                let set = SkillSet::new(vec![skill.clone()], files, 0);
                shown(&set, skill).map(std::borrow::Cow::Owned)
            }
        }
    }
}

/// The argument that carries what the user asks of the skill.
const REQUEST: &str = "request";

/// A skill as its prompt shows it: the `SKILL.md` text and the links.
#[derive(Clone)]
struct Shown {
    skill_md: (String, String),
    links: Vec<ResourceLink>,
}

/// The prompts of `set`'s skills, and the problem of each skill whose
/// path makes no prompt name.
fn prompts_of(set: &SkillSet) -> (Vec<DynamicPrompt>, Vec<String>) {
    let (mut prompts, mut problems) = (Vec::new(), Vec::new());
    for skill in set.skills() {
        let name = skill.path().replace('/', ".");
        let source = if skill.is_generated() {
            Source::Generated(skill.clone())
        } else {
            let Some(shown) = shown(set, skill) else {
                continue;
            };
            Source::Kept(shown)
        };
        let source = Arc::new(source);
        let built = DynamicPrompt::builder(&name)
            .description(skill.description())
            .argument(
                DynamicArgument::new(REQUEST)
                    .optional()
                    .description("What to do with the skill"),
            )
            .scopes(scopes_of(set, skill))
            .origin(uri(&skill.skill_md()))
            .handler(move |args, ctx| match source.shown() {
                Some(shown) => messages(&shown, args.get(REQUEST), ctx.protocol_version()),
                None => Vec::new(),
            })
            .build();
        match built {
            Ok(prompt) => prompts.push(prompt),
            Err(error) => problems.push(format!(
                "{}: the skill's prompt `{name}` is not served: {error}",
                uri(&skill.skill_md())
            )),
        }
    }
    (prompts, problems)
}

/// What a skill's prompt shows, read from the snapshot once.
fn shown(set: &SkillSet, skill: &Skill) -> Option<Shown> {
    // Its own files: not those of a skill nested in it.
    let inner = format!("{}/", skill.path());
    let own = |path: &str| {
        !set.skills().iter().any(|other| {
            other.path().starts_with(&inner) && path.starts_with(&format!("{}/", other.path()))
        })
    };
    let files = set.files_under(skill.path());
    let skill_md = files.iter().find(|f| f.path() == skill.skill_md())?;
    let text = skill_md.text()?.to_owned();
    let links = files
        .iter()
        .filter(|f| f.path() != skill_md.path() && own(f.path()))
        .map(|f| ResourceLink::new(uri(f.path()), f.name()).mime_type(f.mime()))
        .collect();
    Some(Shown {
        skill_md: (uri(skill_md.path()), text),
        links,
    })
}

/// The scopes a caller needs to see `skill`: its own and those of every
/// skill it is nested in.
fn scopes_of(set: &SkillSet, skill: &Skill) -> Vec<String> {
    set.skills()
        .iter()
        .filter(|outer| {
            skill.path() == outer.path() || skill.path().starts_with(&format!("{}/", outer.path()))
        })
        .flat_map(|outer| outer.scopes().iter().cloned())
        .collect()
}

fn messages(shown: &Shown, request: Option<&str>, version: ProtocolVersion) -> Vec<Message> {
    let (uri, text) = &shown.skill_md;
    let mut messages = vec![Message::user(Content::embedded_text(
        uri,
        "text/markdown",
        text,
    ))];
    if version >= ProtocolVersion::V2025_06_18 {
        messages.extend(
            shown
                .links
                .iter()
                .map(|link| Message::user(Content::resource_link(link.clone()))),
        );
    }
    if let Some(request) = request.filter(|r| !r.trim().is_empty()) {
        messages.push(Message::user(request.to_owned()));
    }
    messages
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::set::tests::sample;

    #[test]
    fn each_skill_is_a_prompt_named_by_its_path() {
        let set = sample();
        let (prompts, problems) = prompts_of(&set);
        assert!(problems.is_empty(), "{problems:?}");
        let names: Vec<&str> = prompts.iter().map(DynamicPrompt::name).collect();
        assert_eq!(names, ["acme.billing", "acme.billing.refunds"]);
        assert_eq!(prompts[0].description(), Some("The billing skill"));
        let shown = shown(&set, &set.skills()[0]).unwrap();
        // Its own files: not the nested skill's SKILL.md.
        let links: Vec<&str> = shown
            .links
            .iter()
            .map(crate::content::ResourceLink::uri)
            .collect();
        assert_eq!(
            links,
            [
                "skill://acme/billing/refunds.txt",
                "skill://acme/billing/templates/invoice.md",
                "skill://acme/billing/templates/letters/late.md",
            ]
        );
        let old = messages(&shown, Some("Refund order 7"), ProtocolVersion::V2025_03_26);
        assert_eq!(old.len(), 2, "no links before 2025-06-18");
        let new = messages(&shown, Some("Refund order 7"), ProtocolVersion::LATEST);
        assert_eq!(new.len(), 5);
        assert_eq!(messages(&shown, None, ProtocolVersion::LATEST).len(), 4);
    }

    #[test]
    fn a_skill_path_that_makes_no_prompt_name_is_a_problem() {
        let matter = |name: &str| {
            let json = serde_json::json!({"name": name, "description": "d"});
            json.as_object().unwrap().clone()
        };
        // 31 segments: 154 bytes with the dots, over 128.
        let long = vec!["abcd"; 31].join("/");
        let name = "abcd";
        let set = SkillSet::new(
            vec![
                Skill::new(long.as_str(), matter(name), name, "d"),
                Skill::new("fine", matter("fine"), "fine", "d"),
            ],
            vec![
                crate::skills::SkillFile::new(
                    format!("{long}/SKILL.md"),
                    b"x".to_vec(),
                    "text/markdown",
                ),
                crate::skills::SkillFile::new("fine/SKILL.md", b"x".to_vec(), "text/markdown"),
            ],
            0,
        );
        let (prompts, problems) = prompts_of(&set);
        let names: Vec<&str> = prompts.iter().map(DynamicPrompt::name).collect();
        assert_eq!(names, ["fine"]);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with(&format!("skill://{long}/SKILL.md: the skill's prompt `")),
            "{problems:?}"
        );
    }
}
