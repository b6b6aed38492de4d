//! dotprompt files (`name.prompt`): YAML front matter whose `input.schema`
//! (Picoschema or JSON Schema) declares typed arguments and whose
//! `input.default` gives defaults, then a Handlebars template: `{{name}}`,
//! `{{#if}}`/`{{else}}`, `{{#unless}}`, `{{#each}}` over a JSON-array
//! argument (`{{this}}`, `{{@index}}`), `{{#with}}`, `{{role "user"}}` and
//! `{{role "model"}}` starting messages, `{{> partial}}` from the folder's
//! `_partial.prompt` files, `{{! comments }}` and `~` whitespace control.
//! Values are not HTML-escaped, as dotprompt renders prompts.

mod analyze;
mod bounds;
mod iterations;
mod render;
mod schema;
/// Cases of dotprompt's own spec suite.
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use handlebars::Template;
use yaml_serde::Value;

use super::conventions::{build_prompt, with_matter};
use super::front_matter::{Broken, IconFile, check_all_used};
use super::kind::has_suffix;
use super::yaml;
use crate::args::PromptParam;
use crate::dynamic::{DynamicArgument, DynamicPrompt};
use analyze::{Inclusion, Read, Use};
use render::{Renderer, clean, expected_array};
use schema::{Field, Kind, Scalar};

/// How deep partials may include partials.
const MAX_PARTIAL_DEPTH: usize = 16;

/// The partials of a prompt folder: each `_name.prompt` file, included as
/// `{{> name}}` (`sub/_name.prompt` as `{{> sub/name}}`).
#[derive(Default)]
pub(crate) struct Partials(BTreeMap<String, Partial>);

struct Partial {
    /// The file, relative to the folder.
    path: String,
    /// Its template, or why it cannot be used.
    template: Result<Template, Broken>,
    text: String,
}

impl Partials {
    /// The partials among `files` (relative path and text).
    pub(crate) fn read<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut partials = BTreeMap::new();
        for (path, text) in files {
            if let Some(name) = partial_name(path) {
                let template = compile(&clean(text), 1);
                partials.insert(
                    name,
                    Partial {
                        path: path.to_owned(),
                        template,
                        text: text.to_owned(),
                    },
                );
            }
        }
        Self(partials)
    }

    /// Whether `other` holds the same partials, text for text.
    pub(crate) fn same_as(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|((a, pa), (b, pb))| a == b && pa.text == pb.text)
    }

    /// The text of the partial file at `path` (relative to the folder).
    #[cfg(feature = "registry")]
    pub(crate) fn text_of(&self, path: &str) -> Option<&str> {
        let partial = self.0.get(&partial_name(path)?)?;
        (partial.path == path).then_some(partial.text.as_str())
    }

    /// What is wrong with the partial file at `path` (a template that does
    /// not compile), if anything; `None` if it is no partial.
    pub(crate) fn problem(&self, path: &str) -> Option<Result<(), Broken>> {
        let name = partial_name(path)?;
        let partial = self.0.get(&name)?;
        Some(match &partial.template {
            Ok(template) => analyze::uses(template).map(|_| ()),
            Err(broken) => Err(broken.clone()),
        })
    }
}

/// The name a partial file is included by: `_card.prompt` is `card`,
/// `sub/_card.prompt` is `sub/card`; `None` for any other file.
pub(crate) fn partial_name(path: &str) -> Option<String> {
    let (folder, file) = match path.rsplit_once('/') {
        Some((folder, file)) => (Some(folder), file),
        None => (None, path),
    };
    let stem = file.strip_prefix('_')?;
    if !has_suffix(stem, ".prompt") {
        return None;
    }
    let stem = &stem[..stem.len() - ".prompt".len()];
    Some(match folder {
        Some(folder) => format!("{folder}/{stem}"),
        None => stem.to_owned(),
    })
}

/// A dotprompt file's prompt, named `name` unless its front matter says
/// otherwise, the warnings worth telling its author, and the files of the
/// partials it includes (those they include too).
pub(crate) fn parse(
    text: &str,
    matter: Result<yaml::YamlMatter, Broken>,
    name: &str,
    origin: &str,
    icon: Option<&IconFile>,
    partials: &Partials,
) -> Result<(DynamicPrompt, Vec<Broken>, Vec<String>), Broken> {
    let (front, body, body_line) = yaml::split(text)?;
    // dotprompt trims a body that follows front matter.
    let (body, body_line) = match front {
        Some(_) => {
            let trimmed = body.trim_start();
            let skipped = body[..body.len() - trimmed.len()].matches('\n').count();
            (trimmed.trim_end(), body_line + skipped)
        }
        None => (body, body_line),
    };
    if body.trim().is_empty() {
        return Err(Broken::at(body_line, "the prompt file has no template"));
    }
    let mut matter = matter?;
    let template = compile(&clean(body), body_line)?;
    let mut uses = analyze::uses(&template).map_err(|b| shift(b, body_line))?;
    let rooted = std::mem::take(&mut uses.rooted);
    uses.arguments.extend(rooted);
    for (_, _, line) in &mut uses.arguments {
        *line += body_line - 1;
    }
    let mut warnings = Vec::new();
    let mut roles: Vec<(String, usize)> = uses
        .roles
        .iter()
        .map(|(role, line)| (role.clone(), line + body_line - 1))
        .collect();
    let included = include(
        partials,
        &uses.partials,
        body_line,
        &mut uses.arguments,
        &mut roles,
    )?;
    for (role, line) in roles {
        match role.as_str() {
            "user" | "model" => {}
            "system" => warnings.push(Broken::at(
                line,
                "`{{role \"system\"}}` starts a user message: MCP prompts have no system role",
            )),
            other => {
                return Err(Broken::at(
                    line,
                    format!("role `{other}` is not one a prompt has: use `user` or `model`"),
                ));
            }
        }
    }
    let front = front.unwrap_or_default();
    let fields = declared(matter.input.as_ref(), front, &uses.arguments)?;
    check_uses(&fields, &uses.arguments, matter.unused.as_ref())?;
    let arguments = fields.iter().map(argument).collect::<Vec<_>>();
    let files = included
        .iter()
        .filter_map(|(name, _)| Some(partials.0.get(name)?.path.clone()))
        .collect();
    let renderer =
        Renderer::new(template, included, fields).map_err(|deep| deep.broken(body_line))?;
    let mut builder = with_matter(name, origin, &mut matter, icon)?.rendered(renderer);
    for argument in arguments {
        builder = builder.argument(argument);
    }
    Ok((build_prompt(builder)?, warnings, files))
}

/// Compiles a template whose first line is the file's `first_line`: its
/// tags counted first, its own depth checked after (partials count one
/// level here, and their depth where a renderer is built).
fn compile(source: &str, first_line: usize) -> Result<Template, Broken> {
    bounds::check_tags(source).map_err(|b| shift(b, first_line))?;
    let template = Template::compile(source).map_err(|err| {
        let line = err.pos().map_or(1, |(line, _)| line) + first_line - 1;
        let reason = err.reason().to_string();
        Broken::at(line, format!("template: {reason}"))
    })?;
    bounds::check_depth(&template, &|_| None).map_err(|deep| deep.broken(first_line))?;
    Ok(template)
}

fn shift(mut broken: Broken, first_line: usize) -> Broken {
    broken.line = broken.line.map(|line| line + first_line - 1);
    broken
}

/// The partials the template includes (and those they include), ready to
/// register; the arguments they read from the top-level context join
/// `arguments`, and their roles `roles`, at the line of the inclusion.
fn include(
    partials: &Partials,
    wanted: &[Inclusion],
    body_line: usize,
    arguments: &mut Vec<Read>,
    roles: &mut Vec<(String, usize)>,
) -> Result<Vec<(String, Template)>, Broken> {
    let mut resolver = Resolver {
        partials,
        done: BTreeMap::new(),
        templates: Vec::new(),
    };
    // How many partials the whole prompt expands into.
    let mut size = 0usize;
    for inclusion in wanted {
        let line = inclusion.line + body_line - 1;
        resolver.resolve(&inclusion.name, line, &mut Vec::new())?;
        let mut this = Summary::default();
        this.absorb(&resolver.done[&inclusion.name], inclusion, line)?;
        let reads = this.shared.into_iter().chain(this.rooted);
        arguments.extend(reads.map(|(n, how)| (n, how, line)));
        roles.extend(this.roles.into_iter().map(|role| (role, line)));
        size = size.saturating_add(this.size);
        if size > MAX_EXPANSION {
            return Err(expands_too_far(line));
        }
    }
    Ok(resolver.templates)
}

/// The most partials one prompt may expand into, counting each inclusion
/// of each partial: a few partials that each include another many times
/// would otherwise render text of exponential size.
const MAX_EXPANSION: usize = 1000;

fn expands_too_far(line: usize) -> Broken {
    Broken::at(
        line,
        format!("the partials included here expand to more than {MAX_EXPANSION} inclusions"),
    )
}

/// What a partial, with the partials it includes, reads and does.
#[derive(Default)]
struct Summary {
    /// Arguments it reads from the context it is included into.
    shared: Vec<(String, Use)>,
    /// Arguments it reads through `@root`, whatever that context.
    rooted: Vec<(String, Use)>,
    roles: Vec<String>,
    /// How many partials it expands into, itself included.
    size: usize,
}

impl Summary {
    /// Takes in what partial `inner`, included as `inclusion` says (on the
    /// prompt file's `line`), reads and does.
    fn absorb(&mut self, inner: &Self, inclusion: &Inclusion, line: usize) -> Result<(), Broken> {
        if inclusion.shares {
            let reads = inner
                .shared
                .iter()
                .filter(|(n, _)| !inclusion.given.contains(n));
            self.shared.extend(reads.cloned());
        }
        self.rooted.extend(inner.rooted.iter().cloned());
        self.roles.extend(inner.roles.iter().cloned());
        self.size = self.size.saturating_add(inner.size);
        if self.size > MAX_EXPANSION {
            return Err(expands_too_far(line));
        }
        Ok(())
    }
}

/// Reads each partial a prompt includes once, however often it is
/// included.
struct Resolver<'a> {
    partials: &'a Partials,
    done: BTreeMap<String, Summary>,
    templates: Vec<(String, Template)>,
}

impl Resolver<'_> {
    /// Summarizes partial `name`, included on the prompt file's `line`
    /// through the partials in `chain`.
    fn resolve(&mut self, name: &str, line: usize, chain: &mut Vec<String>) -> Result<(), Broken> {
        if self.done.contains_key(name) {
            return Ok(());
        }
        if chain.iter().any(|n| n == name) {
            return Err(Broken::at(
                line,
                format!(
                    "partial `{name}` includes itself: {} -> {name}",
                    chain.join(" -> ")
                ),
            ));
        }
        if chain.len() >= MAX_PARTIAL_DEPTH {
            return Err(Broken::at(line, "partials nest too deep"));
        }
        let Some(partial) = self.partials.0.get(name) else {
            return Err(Broken::at(
                line,
                format!(
                    "partial `{name}` not found: write it as `_{name}.prompt` in the prompt folder"
                ),
            ));
        };
        let unusable = |broken: &Broken| {
            let path = &partial.path;
            let why = &broken.message;
            Broken::at(
                line,
                format!("partial `{name}` ({path}) cannot be used: {why}"),
            )
        };
        let template = partial.template.as_ref().map_err(unusable)?;
        let uses = analyze::uses(template).map_err(|broken| unusable(&broken))?;
        let strip = |reads: Vec<Read>| reads.into_iter().map(|(n, how, _)| (n, how)).collect();
        let mut summary = Summary {
            shared: strip(uses.arguments),
            rooted: strip(uses.rooted),
            roles: uses.roles.into_iter().map(|(role, _)| role).collect(),
            size: 1,
        };
        chain.push(name.to_owned());
        for inclusion in &uses.partials {
            self.resolve(&inclusion.name, line, chain)?;
            summary.absorb(&self.done[&inclusion.name], inclusion, line)?;
        }
        chain.pop();
        self.templates.push((name.to_owned(), template.clone()));
        self.done.insert(name.to_owned(), summary);
        Ok(())
    }
}

/// The arguments: as `input.schema` declares them, with `input.default`'s
/// defaults; without a schema, each name the template reads, text,
/// required unless it is only tested by `{{#if}}`/`{{#unless}}` (and
/// written only where tested) or defaulted.
fn declared(
    input: Option<&(Value, usize)>,
    front: &str,
    uses: &[(String, Use, usize)],
) -> Result<Vec<Field>, Broken> {
    let (schema, defaults, line) = match input {
        Some((input, line)) => {
            let Value::Mapping(input) = input else {
                return Err(Broken::at(
                    *line,
                    "`input` must hold `schema` and `default`",
                ));
            };
            if let Some(key) = input
                .keys()
                .filter_map(Value::as_str)
                .find(|key| !matches!(*key, "schema" | "default"))
            {
                return Err(Broken::at(
                    line_in_input(front, key).unwrap_or(*line),
                    format!("`input.{key}` is unknown; `input` holds `schema` and `default`"),
                ));
            }
            (input.get("schema"), input.get("default"), *line)
        }
        None => (None, None, 1),
    };
    let mut fields = match schema {
        Some(schema) => schema::fields(schema, line, &|key| {
            key_line(front, &["input", "schema"], key)
        })?,
        None => inferred(uses),
    };
    if let Some(defaults) = defaults {
        let Value::Mapping(defaults) = defaults else {
            return Err(Broken::at(
                line,
                "`input.default` must map argument names to values",
            ));
        };
        for (key, value) in defaults {
            let key = key.as_str().unwrap_or_default();
            let at = key_line(front, &["input", "default"], key).unwrap_or(line);
            let Some(field) = fields.iter_mut().find(|f| f.name == key) else {
                return Err(Broken::at(
                    at,
                    format!("`input.default` gives `{key}`, which is not an argument"),
                ));
            };
            let text = match (&field.kind, value) {
                (Kind::Array(_), Value::Sequence(_)) => {
                    serde_json::to_string(value).unwrap_or_default()
                }
                _ => schema::scalar_text(value).ok_or_else(|| {
                    Broken::at(
                        at,
                        format!("`input.default` of `{key}` must be a plain value"),
                    )
                })?,
            };
            field.check_choice(&text).map_err(|m| Broken::at(at, m))?;
            render::typed(field, &text).map_err(|err| {
                Broken::at(
                    at,
                    format!(
                        "`input.default` of `{key}` is not of its type: {}",
                        err.message()
                    ),
                )
            })?;
            field.required = false;
            field.default = Some(text);
        }
    }
    Ok(fields)
}

/// Without a schema: each argument the template reads, in order.
fn inferred(uses: &[(String, Use, usize)]) -> Vec<Field> {
    let mut fields: Vec<Field> = Vec::new();
    for (name, how, line) in uses {
        let field = match fields.iter_mut().find(|f| &f.name == name) {
            Some(field) => field,
            None => {
                fields.push(Field {
                    name: name.clone(),
                    kind: Kind::Text,
                    required: false,
                    description: None,
                    choices: Vec::new(),
                    default: None,
                    example: None,
                    line: *line,
                });
                fields.last_mut().expect("just pushed")
            }
        };
        match how {
            Use::Each => field.kind = Kind::Array(Scalar::Text),
            Use::Value => field.required = true,
            Use::Condition | Use::Guarded => {}
        }
    }
    fields
}

/// Every name the template reads is declared, `{{#each}}` iterates only
/// arrays, and every declared argument is read unless `unused` says so.
fn check_uses(
    fields: &[Field],
    uses: &[(String, Use, usize)],
    unused: Option<&(Vec<String>, usize)>,
) -> Result<(), Broken> {
    for (name, how, line) in uses {
        let Some(field) = fields.iter().find(|f| &f.name == name) else {
            let declared: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            return Err(Broken::at(
                *line,
                format!(
                    "`{name}` is not declared in `input.schema` (declared: {})",
                    if declared.is_empty() {
                        "none".to_owned()
                    } else {
                        declared.join(", ")
                    }
                ),
            ));
        };
        if *how == Use::Each && !matches!(field.kind, Kind::Array(_)) {
            return Err(Broken::at(
                *line,
                format!("`{{{{#each {name}}}}}` needs an array: declare `{name}(array): string`"),
            ));
        }
    }
    let unused = match unused {
        Some((names, line)) => (names.as_slice(), Some(*line)),
        None => (&[][..], None),
    };
    let declared = fields.iter().map(|f| (f.name.as_str(), f.line));
    let read = |name: &str| uses.iter().any(|(used, _, _)| used == name);
    check_all_used(declared, read, unused, |name| {
        format!("write `{{{{{name}}}}}` where its value goes, or list it in `unused: [..]`")
    })
}

/// A value of `field`'s kind to show it with when the schema gives no
/// example: a placeholder would not parse as a number or a list.
fn sample(field: &Field) -> Option<String> {
    let item = |scalar| match scalar {
        Scalar::Text => format!("\"<{}>\"", field.name),
        Scalar::Integer => "3".to_owned(),
        Scalar::Number => "2.5".to_owned(),
        Scalar::Boolean => "true".to_owned(),
    };
    match field.kind {
        Kind::Text | Kind::Boolean => None,
        Kind::Integer => Some(item(Scalar::Integer)),
        Kind::Number => Some(item(Scalar::Number)),
        Kind::Array(scalar) => Some(format!("[{}]", item(scalar))),
    }
}

/// What a client sees of `field`.
fn argument(field: &Field) -> DynamicArgument {
    let mut argument = DynamicArgument::new(&field.name);
    // A client cannot guess that a list is sent as JSON: the description
    // says so.
    let description = match (&field.description, field.kind) {
        (Some(text), Kind::Array(item)) => Some(format!("{text} ({})", expected_array(item))),
        (None, Kind::Array(item)) => Some(expected_array(item).to_owned()),
        (text, _) => text.clone(),
    };
    if let Some(description) = description {
        argument = argument.description(description);
    }
    if !field.required {
        argument = argument.optional();
    }
    if let Some(default) = &field.default {
        argument = argument.default(default);
    }
    if let Some(example) = field.example.clone().or_else(|| sample(field)) {
        argument = argument.example(example);
    }
    match field.kind {
        Kind::Boolean => argument.choices(["true", "false"]),
        _ if !field.choices.is_empty() => argument.choices(field.choices.iter().cloned()),
        Kind::Integer => argument.value_type(<i64 as PromptParam>::TYPE),
        Kind::Number => argument.value_type(<f64 as PromptParam>::TYPE),
        _ => argument,
    }
}

/// The file's line of `key` within the front matter's `input` (which
/// starts on the file's line 2), if it is there.
fn line_in_input(front: &str, key: &str) -> Option<usize> {
    key_line(front, &["input"], key)
}

/// The file's line of `key` below each of `parents` in turn (each found
/// after the one before), if it is there.
fn key_line(front: &str, parents: &[&str], key: &str) -> Option<usize> {
    let lines: Vec<&str> = front.lines().collect();
    let is_key = |line: &str, key: &str| {
        let line = line.trim_start().trim_start_matches(['"', '\'']);
        line.strip_prefix(key).is_some_and(|rest| {
            rest.trim_start_matches(['"', '\''])
                .starts_with([':', '?', '('])
        })
    };
    let mut from = 0;
    for parent in parents {
        from += lines[from..].iter().position(|line| is_key(line, parent))? + 1;
    }
    lines[from..]
        .iter()
        .position(|line| is_key(line, key))
        .map(|index| from + index + 2)
}

// Its reading's tests, the folder's other tests beside them (`tests.rs`).
#[cfg(test)]
#[path = "reading/tests.rs"]
mod reading_tests;
