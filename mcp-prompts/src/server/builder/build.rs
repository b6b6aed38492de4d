//! The build: a [`Server`]'s settings checked and made the [`Service`]
//! that serves them, with the key that signs request states and the
//! skills it starts with.

use std::sync::Arc;

use super::Server;
use crate::catalog::{
    AnyPrompt, CatalogSnapshot, LiveCatalog, Prompts, ServedLanguages, registered_prompts,
};
use crate::complete::StaticIndexes;
use crate::context::UnsentBudget;
use crate::error::{BuildError, excerpt};
use crate::server::info::{Declared, Info, Resources};
use crate::server::modern::ModernReplies;
use crate::server::request_state;
use crate::server::skill_prompts::SkillPrompts;
use crate::server::{Inner, Service};
use crate::skills::set::Skill;
use crate::skills::{DynamicSkill, LiveSkills, SkillFile, SkillSet};

impl Server {
    /// Validates the catalog and prepares everything sent repeatedly.
    ///
    /// A duplicate prompt name, an invalid name or a default that does not
    /// parse is an error naming where each definition is.
    pub fn build(self) -> Result<Service, BuildError> {
        self.build_with(false)
    }

    /// Like [`build`](Self::build), and also returns the handle that
    /// changes the catalog while the server runs: clients are told of each
    /// change (`listChanged` is declared), and completion is declared for
    /// the prompts to come.
    pub fn build_live(self) -> Result<(Service, Prompts), BuildError> {
        let service = self.build_with(true)?;
        let prompts = Prompts::new(Arc::clone(&service.0.live));
        Ok((service, prompts))
    }

    fn build_with(mut self, prompts_live: bool) -> Result<Service, BuildError> {
        // Skills from code, then those `include_skill!` embedded.
        let mut code_skills = std::mem::take(&mut self.skills);
        if self.embedded_skills {
            code_skills.extend(crate::skills::embedded_skills());
        }
        if !code_skills.is_empty() {
            self.declare.resources = Resources::Skills;
        }
        #[cfg(feature = "registry")]
        let prompts_live = prompts_live || self.registry.is_some();
        #[cfg(feature = "files")]
        let folders = !self.skill_roots.is_empty();
        #[cfg(not(feature = "files"))]
        let folders = false;
        self.declare.skills_live = folders;
        // Skills' prompts follow the skills as folders change them.
        let bridge = self.skills_as_prompts && (folders || !code_skills.is_empty());
        let prompts_live = prompts_live || (bridge && folders);
        let state_key = state_key(self.state_key)?;
        let registered = self.registered.unwrap_or(self.explicit.is_empty());
        let registered = registered
            .then(registered_prompts)
            .into_iter()
            .flatten()
            .map(AnyPrompt::from);
        check_server_icons(&self.icons)?;
        let languages = self.languages.served()?;
        let default_language = languages.default_language().clone();
        let explicit = self.explicit.into_iter().chain(registered);
        let explicit = admitted(explicit, &languages)?;
        let served =
            CatalogSnapshot::build(explicit, &self.tags, self.page_size, languages.words())?;
        let completions = prompts_live
            || self.declare.completions
            || self.resources.is_some()
            || served.has_completions();
        let info = Info {
            name: self.name,
            version: self.version,
            title: self.title,
            icons: self.icons,
            instructions: self.instructions,
            declared: Declared {
                completions,
                ..self.declare
            },
            list_changed: prompts_live,
        };
        let modern = ModernReplies::new(&info, self.cache.resolve(prompts_live));
        let skills = Arc::new(fixed_skills(&code_skills, self.skills_page_size)?);
        let live = Arc::new(LiveCatalog::new(
            served,
            self.tags,
            self.page_size,
            languages,
        ));
        if bridge && !folders {
            // Skills from code only: their prompts, once.
            let problems =
                SkillPrompts::default().sync(&Prompts::new(Arc::clone(&live)), &skills.load());
            for problem in &problems {
                tracing::warn!("skill's prompt not served: {problem}");
            }
            skills.replace_problems(problems);
        }
        #[cfg(feature = "files")]
        let skill_watch = {
            let follow = bridge.then(|| {
                let (prompts, mut bridged) =
                    (Prompts::new(Arc::clone(&live)), SkillPrompts::default());
                Box::new(move |set: &SkillSet| bridged.sync(&prompts, set))
                    as crate::files::skills::Follow
            });
            watch_skills(
                self.skill_roots,
                self.skills_page_size,
                code_skills,
                &skills,
                follow,
            )?
        };
        #[cfg(feature = "registry")]
        let registry = serve_registry(self.registry, self.label_scopes, &live)?;
        Ok(Service(Arc::new(Inner {
            skills,
            #[cfg(feature = "files")]
            _skill_watch: skill_watch,
            #[cfg(feature = "registry")]
            registry,
            live,
            prompts_live,
            info,
            modern,
            state_key,
            ask_for_missing: self.ask_for_missing,
            default_language,
            unsent: UnsentBudget::new(self.limits.unsent_bytes),
            limits: self.limits,
            resources: self.resources,
            static_indexes: StaticIndexes::default(),
        })))
    }
}

/// Serves the registry's label (if one is given) through `live`; a URL or
/// label that is not one, or a registry that cannot be read, fails the
/// build.
#[cfg(feature = "registry")]
fn serve_registry(
    source: Option<crate::registry::Source>,
    scopes: crate::registry::LabelScopes,
    live: &Arc<LiveCatalog>,
) -> Result<Option<crate::registry::ServedRegistry>, BuildError> {
    let Some(source) = source else {
        return Ok(None);
    };
    let (url, label) = source.into_parts();
    let problems = scopes.problems();
    if !problems.is_empty() {
        return Err(BuildError::new(problems));
    }
    let failed = |err: crate::registry::RegistryError| BuildError::new(vec![err.to_string()]);
    let location = crate::registry::Location::parse(&url).map_err(failed)?;
    crate::registry::check_label(&label).map_err(failed)?;
    let prompts = Prompts::new(Arc::clone(live));
    let served = crate::registry::serve((location, label), scopes, prompts).map_err(failed)?;
    Ok(Some(served))
}

/// Fails for a server icon that is not one, or not an `https://` URL.
fn check_server_icons(icons: &[crate::presentation::Icon]) -> Result<(), BuildError> {
    let problems: Vec<String> = (icons.iter())
        .filter_map(|icon| match icon.problem() {
            None if !icon.is_url() => Some(format!(
                "server icon `{}`: a server icon must be an `https://` URL",
                excerpt(icon.src())
            )),
            problem => problem.map(|p| format!("server {p}")),
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(BuildError::new(problems))
    }
}

/// The key that signs request states: from the secret given, else random
/// (`None` when the system gives no randomness); a short secret fails.
fn state_key(
    given: Option<Result<request_state::StateKey, usize>>,
) -> Result<Option<request_state::StateKey>, BuildError> {
    Ok(match given {
        Some(Ok(key)) => Some(key),
        Some(Err(length)) => {
            return Err(BuildError::new(vec![format!(
                "the request state secret has {length} bytes; it needs at least {}",
                request_state::StateKey::MIN_SECRET_BYTES
            )]));
        }
        None => {
            let key = request_state::StateKey::random();
            if key.is_none() {
                tracing::warn!(
                    "the system gives no randomness for the request-state key: stateless \
                     prompts cannot ask their user unless a secret is given \
                     (Server::request_state_secret)"
                );
            }
            key
        }
    })
}

/// Reads the skills under `roots` into `skills` and keeps them in step
/// with the folders; a root that cannot be read fails the build, a skill
/// that cannot be served is logged and left out.
#[cfg(feature = "files")]
fn watch_skills(
    roots: Vec<crate::files::skills::SkillRoot>,
    page_size: usize,
    fixed: Vec<DynamicSkill>,
    skills: &Arc<LiveSkills>,
    follow: Option<crate::files::skills::Follow>,
) -> Result<Option<crate::files::skills::Watching>, BuildError> {
    if roots.is_empty() {
        return Ok(None);
    }
    crate::files::skills::watch(roots, page_size, fixed, Arc::clone(skills), follow)
        .map(Some)
        .map_err(|err| BuildError::new(vec![format!("skills folder: {err}")]))
}

/// The skills defined in code, served as they are until folders' skills
/// join them; two at one path fail the build.
fn fixed_skills(skills: &[DynamicSkill], page_size: usize) -> Result<LiveSkills, BuildError> {
    let (mut served, mut files) = (Vec::new(), Vec::new());
    for skill in skills {
        let (skills, own) = skill.parts();
        served.extend(skills);
        files.extend(own);
    }
    // Nested skills too: an embedded folder's `pdf/forms` and a skill
    // from code at that path would be two skills at one path.
    let problem = match (
        twice(served.iter().map(Skill::path)),
        twice(files.iter().map(SkillFile::path)),
    ) {
        (Some(path), _) => format!("two skills have the path `{path}`"),
        (None, Some(path)) => format!("two skills serve the file `{path}`"),
        (None, None) => String::new(),
    };
    if !problem.is_empty() {
        return Err(BuildError::new(vec![problem]));
    }
    Ok(LiveSkills::new(
        SkillSet::new(served, files, page_size),
        Vec::new(),
    ))
}

/// A path given twice among `paths`.
fn twice<'a>(paths: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut paths: Vec<&str> = paths.collect();
    paths.sort_unstable();
    paths.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

/// `prompts` as the catalog serves them (a `#[prompt]` with its texts in
/// other languages); every prompt refused fails the build, all named.
fn admitted(
    prompts: impl Iterator<Item = AnyPrompt>,
    languages: &ServedLanguages,
) -> Result<Vec<AnyPrompt>, BuildError> {
    let mut problems = Vec::new();
    let admitted = prompts
        .filter_map(|prompt| match languages.admit(prompt) {
            Ok(prompt) => Some(prompt),
            Err(error) => {
                problems.extend_from_slice(error.problems());
                None
            }
        })
        .collect();
    if problems.is_empty() {
        Ok(admitted)
    } else {
        Err(BuildError::new(problems))
    }
}
