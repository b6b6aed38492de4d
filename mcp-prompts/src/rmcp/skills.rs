//! Skills inside an rmcp server, through rmcp's own hooks: the same
//! snapshot as on mcp-prompts' transports answers `skills/list`,
//! `skills/get`, `resources/read`, `resources/list` and
//! `resources/directory/read`, converted to rmcp's types field by field.

use ::rmcp::model::{
    GetSkillRequestParams, GetSkillResult, ListResourcesResult, ListSkillsResult,
    PaginatedRequestParams, ReadResourceDirectoryRequestParams, ReadResourceRequestParams,
    ReadResourceResult, Resource, ResourceContents, SkillFrontmatter, SkillResource,
    SkillResources,
};
use ::rmcp::service::RequestContext;
use ::rmcp::{ErrorData, RoleServer};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use super::{RmcpPrompts, access_of, to_rmcp, version_of};
use crate::protocol::answer::Answer as _;
use crate::protocol::method::Method;
use crate::skills::answers::{Entry, Item};
use crate::skills::set::Skill;
use crate::skills::{DIRECTORY_MIME, uri};

impl RmcpPrompts {
    /// Answers `resources/list` when the server serves resources
    /// ([`Server::serve_resources`](crate::Server::serve_resources), or
    /// skills: every skill's files), and refuses it with -32601 when not,
    /// as mcp-prompts' own transports do. The handler may serve resources
    /// of its own: call this from its `list_resources`, and add them to
    /// the page.
    ///
    /// ```
    /// # use mcp_prompts::rmcp::RmcpPrompts;
    /// # use rmcp::model::{ListResourcesResult, PaginatedRequestParams, Resource};
    /// # use rmcp::service::RequestContext;
    /// # use rmcp::{ErrorData, RoleServer, ServerHandler};
    /// # #[derive(Clone)]
    /// # struct MyServer { prompts: RmcpPrompts }
    /// # impl MyServer { fn my_resources(&self) -> Vec<Resource> { Vec::new() } }
    /// # impl ServerHandler for MyServer {
    /// async fn list_resources(
    ///     &self,
    ///     request: Option<PaginatedRequestParams>,
    ///     context: RequestContext<RoleServer>,
    /// ) -> Result<ListResourcesResult, ErrorData> {
    ///     let mut page = self.prompts.list_resources(request.as_ref(), &context)?;
    ///     page.resources.extend(self.my_resources());
    ///     Ok(page)
    /// }
    /// # }
    /// ```
    pub fn list_resources(
        &self,
        request: Option<&PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.watched(
            "resources/list",
            || None,
            context,
            || self.list_resources_unwatched(request, context),
        )
    }

    fn list_resources_unwatched(
        &self,
        request: Option<&PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.attach(context);
        self.served(Method::ResourcesList)?;
        let skills = self.service.skills();
        let view = skills.view(&access_of(context));
        let cursor = request.and_then(|r| r.cursor.as_deref());
        let page = view.resources(cursor).map_err(|e| to_rmcp(&e))?;
        let mut result =
            ListResourcesResult::with_all_items(page.items().map(|item| resource(&item)).collect());
        result.next_cursor = page.next_cursor().map(Into::into);
        (result.ttl_ms, result.cache_scope) = self.hints(version_of(context), page.cached());
        Ok(result)
    }

    /// Answers `resources/read` of a skill's file; any other URI is
    /// refused as not found (-32002 before 2026-07-28, -32602 from it).
    /// A handler with resources of its own tries those first.
    pub fn read_resource(
        &self,
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        self.watched(
            "resources/read",
            || Some(crate::telemetry::Asked::Resource(request.uri.clone())),
            context,
            || self.read_resource_unwatched(request, context),
        )
    }

    fn read_resource_unwatched(
        &self,
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        self.attach(context);
        self.served(Method::ResourcesRead)?;
        let version = version_of(context);
        let skills = self.service.skills();
        let view = skills.view(&access_of(context));
        let read = view.read(&request.uri, version).map_err(|e| to_rmcp(&e))?;
        let file = read.file();
        let contents = match file.text() {
            Some(text) => ResourceContents::TextResourceContents {
                uri: uri(file.path()),
                mime_type: Some(file.mime().to_owned()),
                text: text.to_owned(),
                meta: None,
            },
            None => ResourceContents::BlobResourceContents {
                uri: uri(file.path()),
                mime_type: Some(file.mime().to_owned()),
                blob: BASE64.encode(file.bytes()),
                meta: None,
            },
        };
        let mut result = ReadResourceResult::new(vec![contents]);
        (result.ttl_ms, result.cache_scope) = self.hints(version, read.cached());
        Ok(result)
    }

    /// Answers `resources/directory/read`: a skill folder's direct
    /// children.
    pub fn read_resource_directory(
        &self,
        request: &ReadResourceDirectoryRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.watched(
            "resources/directory/read",
            || Some(crate::telemetry::Asked::Resource(request.uri.clone())),
            context,
            || self.read_resource_directory_unwatched(request, context),
        )
    }

    fn read_resource_directory_unwatched(
        &self,
        request: &ReadResourceDirectoryRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.attach(context);
        self.served(Method::ResourcesDirectoryRead)?;
        let skills = self.service.skills();
        let cursor = request.cursor.as_deref();
        let view = skills.view(&access_of(context));
        let page = view
            .read_directory(&request.uri, cursor)
            .map_err(|e| to_rmcp(&e))?;
        let mut result =
            ListResourcesResult::with_all_items(page.items().map(|item| resource(&item)).collect());
        result.next_cursor = page.next_cursor().map(Into::into);
        (result.ttl_ms, result.cache_scope) = self.hints(version_of(context), page.cached());
        Ok(result)
    }

    /// Answers `skills/list`, page by page, no entry split.
    pub fn list_skills(
        &self,
        request: Option<&PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.watched(
            "skills/list",
            || None,
            context,
            || self.list_skills_unwatched(request, context),
        )
    }

    fn list_skills_unwatched(
        &self,
        request: Option<&PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.attach(context);
        self.served(Method::SkillsList)?;
        let skills = self.service.skills();
        let view = skills.view(&access_of(context));
        let cursor = request.and_then(|r| r.cursor.as_deref());
        let page = view.list(cursor).map_err(|e| to_rmcp(&e))?;
        let mut result =
            ListSkillsResult::with_all_items(page.entries().map(|entry| skill(&entry)).collect());
        result.next_cursor = page.next_cursor().map(Into::into);
        (result.ttl_ms, result.cache_scope) = self.hints(version_of(context), page.cached());
        Ok(result)
    }

    /// Answers `skills/get`: the skill whose `SKILL.md` the URI names.
    pub fn get_skill(
        &self,
        request: &GetSkillRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.watched(
            "skills/get",
            || Some(crate::telemetry::Asked::Resource(request.uri.clone())),
            context,
            || self.get_skill_unwatched(request, context),
        )
    }

    fn get_skill_unwatched(
        &self,
        request: &GetSkillRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.attach(context);
        self.served(Method::SkillsGet)?;
        let got = self
            .service
            .skills()
            .view(&access_of(context))
            .get(&request.uri)
            .map_err(|e| to_rmcp(&e))?;
        let mut result = GetSkillResult::new(skill(&got.entry()));
        (result.ttl_ms, result.cache_scope) = self.hints(version_of(context), got.cached());
        Ok(result)
    }

    /// -32601 for a method the server does not serve.
    fn served(&self, method: Method) -> Result<(), ErrorData> {
        self.service
            .declared(method)
            .map(drop)
            .map_err(|e| to_rmcp(&e))
    }
}

/// A skill's entry, as rmcp's type.
fn skill(entry: &Entry<'_>) -> ::rmcp::model::Skill {
    let skill = entry.skill();
    let mut frontmatter = SkillFrontmatter::new(skill.name(), skill.description());
    for (key, value) in skill.front_matter() {
        if key != "name" && key != "description" {
            frontmatter.extra.insert(key.clone(), value.clone());
        }
    }
    let resources = if skill.is_generated() {
        SkillResources::Dynamic
    } else {
        SkillResources::Files(
            entry
                .files()
                .map(|file| SkillResource::new(uri(file.path()), file.digest(), file.size()))
                .collect(),
        )
    };
    ::rmcp::model::Skill::new(uri(&skill.skill_md()), frontmatter, resources)
}

/// A listed resource, as rmcp's type.
fn resource(item: &Item<'_>) -> Resource {
    match *item {
        Item::File(file, skill_md) => {
            let name = skill_md.map_or_else(|| file.name(), Skill::name);
            let mut resource = Resource::new(uri(file.path()), name)
                .with_mime_type(file.mime())
                .with_size(file.size());
            if let Some(skill) = skill_md {
                resource = resource.with_description(skill.description());
            }
            resource
        }
        Item::Directory(path) => {
            let name = path.rsplit('/').next().unwrap_or_default();
            Resource::new(uri(path), name).with_mime_type(DIRECTORY_MIME)
        }
    }
}

/// The skill methods of an rmcp `ServerHandler`, answered by the
/// [`RmcpPrompts`] in the field named: `list_skills`, `get_skill`,
/// `read_resource_directory`, `list_resources` and `read_resource`.
/// Write it inside the `impl ServerHandler` block, beside
/// [`serve_prompts!`](crate::rmcp::serve_prompts). A handler with
/// resources of its own leaves it out and writes the five methods itself,
/// calling [`RmcpPrompts::list_resources`] and the others for the skills.
///
/// ```
/// # #[derive(Clone)]
/// # struct MyServer { prompts: mcp_prompts::rmcp::RmcpPrompts }
/// impl rmcp::ServerHandler for MyServer {
///     mcp_prompts::rmcp::serve_prompts!(prompts);
///     mcp_prompts::rmcp::serve_skills!(prompts);
/// }
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! __serve_skills {
    ($field:ident) => {
        async fn list_skills(
            &self,
            request: ::std::option::Option<$crate::rmcp::model::PaginatedRequestParams>,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<$crate::rmcp::model::ListSkillsResult, $crate::rmcp::ErrorData> {
            self.$field.list_skills(request.as_ref(), &context)
        }

        async fn get_skill(
            &self,
            request: $crate::rmcp::model::GetSkillRequestParams,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<$crate::rmcp::model::GetSkillResult, $crate::rmcp::ErrorData> {
            self.$field.get_skill(&request, &context)
        }

        async fn read_resource_directory(
            &self,
            request: $crate::rmcp::model::ReadResourceDirectoryRequestParams,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<$crate::rmcp::model::ReadResourceDirectoryResult, $crate::rmcp::ErrorData>
        {
            self.$field.read_resource_directory(&request, &context)
        }

        async fn list_resources(
            &self,
            request: ::std::option::Option<$crate::rmcp::model::PaginatedRequestParams>,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<$crate::rmcp::model::ListResourcesResult, $crate::rmcp::ErrorData> {
            self.$field.list_resources(request.as_ref(), &context)
        }

        async fn read_resource(
            &self,
            request: $crate::rmcp::model::ReadResourceRequestParams,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<$crate::rmcp::model::ReadResourceResponse, $crate::rmcp::ErrorData>
        {
            self.$field
                .read_resource(&request, &context)
                .map(::std::convert::Into::into)
        }
    };
}

#[doc(inline)]
pub use crate::__serve_skills as serve_skills;
