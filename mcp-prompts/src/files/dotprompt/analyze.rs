//! What a dotprompt template uses, read from its Handlebars syntax tree
//! before it is served: the arguments it reads (and how), the partials it
//! includes, the roles it switches to. Anything outside the subset prompt
//! files support is refused here, on its line, rather than rendered wrong.

use handlebars::template::{DecoratorTemplate, HelperTemplate, Parameter, TemplateElement};
use handlebars::{Path, Template};

use crate::files::front_matter::Broken;

/// The helpers a prompt file may use.
const HELPERS: [&str; 5] = ["if", "unless", "each", "with", "role"];

/// How a template reads an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Use {
    /// Its value is written (`{{name}}`), or passed on (`{{> p x=name}}`).
    Value,
    /// It is only tested (`{{#if name}}`, `{{#unless name}}`).
    Condition,
    /// It is iterated (`{{#each name}}`).
    Each,
}

/// What one template (a prompt's or a partial's) uses; lines are the
/// template's own, from 1.
#[derive(Debug, Default)]
pub(crate) struct Uses {
    /// Each argument read from the top-level context, with how and where.
    pub(crate) arguments: Vec<(String, Use, usize)>,
    /// Each partial included, whether it sees the including context (no
    /// context or hash given), and where.
    pub(crate) partials: Vec<(String, bool, usize)>,
    /// Each `{{role "..."}}`, and where.
    pub(crate) roles: Vec<(String, usize)>,
}

/// Reads what `template` uses.
pub(crate) fn uses(template: &Template) -> Result<Uses, Broken> {
    let mut uses = Uses::default();
    walk(template, 0, None, &mut uses)?;
    Ok(uses)
}

/// Walks `template`, whose context is `depth` blocks below the top level
/// (`each` and `with` each go one deeper); `line` stands in for elements
/// that carry no line of their own.
fn walk(
    template: &Template,
    depth: usize,
    line: Option<usize>,
    uses: &mut Uses,
) -> Result<(), Broken> {
    for (index, element) in template.elements.iter().enumerate() {
        let line = template
            .mapping
            .get(index)
            .map(|at| at.0)
            .or(line)
            .unwrap_or(1);
        match element {
            TemplateElement::RawString(_) | TemplateElement::Comment(_) => {}
            TemplateElement::Expression(helper) | TemplateElement::HtmlExpression(helper) => {
                expression(helper, depth, line, uses)?;
            }
            TemplateElement::HelperBlock(helper) => block(helper, depth, line, uses)?,
            TemplateElement::PartialExpression(partial) => {
                include(partial, depth, line, uses)?;
            }
            TemplateElement::PartialBlock(_) => {
                return Err(Broken::at(
                    line,
                    "partial blocks (`{{#> name}}`) are not supported; include a partial with `{{> name}}`",
                ));
            }
            _ => {
                return Err(Broken::at(
                    line,
                    "decorators (`{{* ..}}`) are not supported",
                ));
            }
        }
    }
    Ok(())
}

/// `{{name}}` or `{{helper args..}}`.
fn expression(
    helper: &HelperTemplate,
    depth: usize,
    line: usize,
    uses: &mut Uses,
) -> Result<(), Broken> {
    let name = name_of(&helper.name);
    if helper.params.is_empty() && helper.hash.is_empty() {
        if name == "role" {
            return Err(Broken::at(
                line,
                "`{{role}}` needs a role: `{{role \"user\"}}`",
            ));
        }
        return value(&helper.name, depth, Use::Value, line, uses);
    }
    match name {
        "role" => {
            let role = match helper.params.as_slice() {
                [Parameter::Literal(serde_json::Value::String(role))] => role.clone(),
                _ => {
                    return Err(Broken::at(
                        line,
                        "`{{role}}` takes one quoted role: `{{role \"user\"}}` or `{{role \"model\"}}`",
                    ));
                }
            };
            uses.roles.push((role, line));
            Ok(())
        }
        other => Err(unsupported_helper(other, line)),
    }
}

/// `{{#helper ..}}..{{else}}..{{/helper}}`.
fn block(
    helper: &HelperTemplate,
    depth: usize,
    line: usize,
    uses: &mut Uses,
) -> Result<(), Broken> {
    let name = name_of(&helper.name);
    let (how, inner) = match name {
        "if" | "unless" => (Use::Condition, depth),
        "each" => (Use::Each, depth + 1),
        "with" => (Use::Value, depth + 1),
        other => return Err(unsupported_helper(other, line)),
    };
    let [subject] = helper.params.as_slice() else {
        return Err(Broken::at(
            line,
            format!("`{{{{#{name}}}}}` takes one argument"),
        ));
    };
    if helper.block_param.is_some() {
        return Err(Broken::at(
            line,
            format!("block parameters (`{{{{#{name} x as |y|}}}}`) are not supported"),
        ));
    }
    value(subject, depth, how, line, uses)?;
    if let Some(template) = &helper.template {
        walk(template, inner, Some(line), uses)?;
    }
    if let Some(inverse) = &helper.inverse {
        // `{{else}}` renders in the block's own context.
        walk(inverse, depth, Some(line), uses)?;
    }
    Ok(())
}

/// `{{> partial}}`, `{{> partial context}}` or `{{> partial key=value}}`.
fn include(
    partial: &DecoratorTemplate,
    depth: usize,
    line: usize,
    uses: &mut Uses,
) -> Result<(), Broken> {
    let name = name_of(&partial.name).to_owned();
    for param in partial.params.iter().chain(partial.hash.values()) {
        value(param, depth, Use::Value, line, uses)?;
    }
    // A partial given no context of its own sees the includer's, and reads
    // its arguments only when included from the top level.
    let shares = partial.params.is_empty() && partial.hash.is_empty() && depth == 0;
    uses.partials.push((name, shares, line));
    Ok(())
}

/// Records the argument `param` reads, if it reads one from the top level.
fn value(
    param: &Parameter,
    depth: usize,
    how: Use,
    line: usize,
    uses: &mut Uses,
) -> Result<(), Broken> {
    let raw = match param {
        Parameter::Name(name) => name.as_str(),
        Parameter::Path(path) => raw(path),
        Parameter::Literal(_) => return Ok(()),
        Parameter::Subexpression(sub) => {
            return Err(unsupported_helper(sub.name(), line));
        }
        _ => return Err(Broken::at(line, "this expression is not supported")),
    };
    if let Some(name) = top_level(raw, depth) {
        uses.arguments.push((name.to_owned(), how, line));
    }
    Ok(())
}

/// The top-level argument a path reads, seen from `depth` blocks down:
/// `name` and `name.field` at the top level, `../name` one block down,
/// `@root.name` anywhere; `this` and `@index` read no argument.
fn top_level(raw: &str, depth: usize) -> Option<&str> {
    let (mut path, mut up) = (raw, 0);
    if let Some(rest) = path.strip_prefix("@root") {
        path = rest.trim_start_matches(['.', '/']);
        up = depth;
    }
    while let Some(rest) = path.strip_prefix("../") {
        path = rest;
        up += 1;
    }
    let path = path
        .strip_prefix("this.")
        .or(path.strip_prefix("./"))
        .unwrap_or(path);
    let first = path.split(['.', '/']).next().unwrap_or_default();
    let is_name = !first.is_empty() && first != "this" && !first.starts_with('@');
    (is_name && up >= depth).then_some(first)
}

fn name_of(param: &Parameter) -> &str {
    match param {
        Parameter::Name(name) => name,
        Parameter::Path(path) => raw(path),
        _ => "",
    }
}

/// A path as written.
fn raw(path: &Path) -> &str {
    match path {
        Path::Relative((_, raw)) | Path::Local((_, _, raw)) => raw,
    }
}

fn unsupported_helper(name: &str, line: usize) -> Broken {
    Broken::at(
        line,
        format!(
            "helper `{name}` is not supported in prompt files; the supported ones are {}",
            HELPERS.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(source: &str) -> Result<Uses, Broken> {
        uses(&Template::compile(source).unwrap())
    }

    #[test]
    fn arguments_are_read_where_the_top_level_context_is() {
        let uses = read(
            "{{role \"system\"}}Hi {{name}}.\n{{#if topic}}On {{topic.title}}{{/if}}\n{{#each items}}- {{this}} {{@index}} {{../style}} {{field}}{{/each}}\n{{> footer}}{{> card who=name}}",
        )
        .unwrap();
        let args: Vec<(&str, Use)> = uses
            .arguments
            .iter()
            .map(|(n, u, _)| (n.as_str(), *u))
            .collect();
        assert_eq!(
            args,
            [
                ("name", Use::Value),
                ("topic", Use::Condition),
                ("topic", Use::Value),
                ("items", Use::Each),
                ("style", Use::Value),
                ("name", Use::Value),
            ]
        );
        assert_eq!(uses.roles, [("system".to_owned(), 1)]);
        let partials: Vec<(&str, bool)> = uses
            .partials
            .iter()
            .map(|(n, s, _)| (n.as_str(), *s))
            .collect();
        assert_eq!(partials, [("footer", true), ("card", false)]);
        let lines: Vec<usize> = uses.arguments.iter().map(|(_, _, l)| *l).collect();
        assert_eq!(lines, [1, 2, 2, 3, 3, 4]);
    }

    #[test]
    fn what_prompt_files_do_not_support_is_refused_on_its_line() {
        for source in [
            "a\n{{json x}}",
            "a\n{{#media url=x}}{{/media}}",
            "a\n{{#each xs as |x|}}{{x}}{{/each}}",
            "a\n{{role}}",
            "a\n{{role kind}}",
            "a\n{{#> layout}}x{{/layout}}",
        ] {
            let broken = read(source).unwrap_err();
            assert_eq!(broken.line, Some(2), "{source}: {}", broken.message);
        }
    }
}
