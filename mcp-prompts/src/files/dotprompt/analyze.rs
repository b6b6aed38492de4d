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
    /// Its value is written only where it was tested first
    /// (`{{#if name}}..{{name}}..{{/if}}`).
    Guarded,
    /// It is only tested (`{{#if name}}`, `{{#unless name}}`).
    Condition,
    /// It is iterated (`{{#each name}}`).
    Each,
}

/// One `{{> partial}}`.
#[derive(Debug)]
pub(crate) struct Inclusion {
    pub(super) name: String,
    /// Whether the partial sees the top-level context: it is included
    /// from the top level with no context of its own (`key=value` pairs
    /// join that context).
    pub(super) shares: bool,
    /// The names its `key=value` pairs give it.
    pub(super) given: Vec<String>,
    pub(super) line: usize,
}

/// One argument read: its name, how, and the template's line.
pub(crate) type Read = (String, Use, usize);

/// What one template (a prompt's or a partial's) uses; lines are the
/// template's own, from 1.
#[derive(Debug, Default)]
pub(crate) struct Uses {
    /// Each argument read from the top-level context, with how and where.
    pub(super) arguments: Vec<Read>,
    /// Those read through `@root`, which reach the top level from any
    /// context, a partial's too.
    pub(super) rooted: Vec<Read>,
    /// Each partial included.
    pub(super) partials: Vec<Inclusion>,
    /// Each `{{role "..."}}`, and where.
    pub(super) roles: Vec<(String, usize)>,
}

/// Reads what `template` uses.
pub(crate) fn uses(template: &Template) -> Result<Uses, Broken> {
    let mut uses = Uses::default();
    let mut walker = Walker {
        uses: &mut uses,
        guards: Vec::new(),
    };
    walker.walk(template, 0, None)?;
    Ok(uses)
}

/// A walk through a template: what it found so far, and the arguments
/// tested by the `{{#if}}` blocks it is inside.
struct Walker<'a> {
    uses: &'a mut Uses,
    guards: Vec<String>,
}

impl Walker<'_> {
    /// Walks `template`, whose context is `depth` blocks below the top
    /// level (`each` and `with` each go one deeper); `line` stands in for
    /// elements that carry no line of their own.
    fn walk(
        &mut self,
        template: &Template,
        depth: usize,
        line: Option<usize>,
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
                    self.expression(helper, depth, line)?;
                }
                TemplateElement::HelperBlock(helper) => self.block(helper, depth, line)?,
                TemplateElement::PartialExpression(partial) => {
                    self.include(partial, depth, line)?;
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
        &mut self,
        helper: &HelperTemplate,
        depth: usize,
        line: usize,
    ) -> Result<(), Broken> {
        let name = raw_of(&helper.name);
        if helper.params.is_empty() && helper.hash.is_empty() {
            if name == "role" {
                return Err(Broken::at(
                    line,
                    "`{{role}}` needs a role: `{{role \"user\"}}`",
                ));
            }
            return self.value(&helper.name, depth, Use::Value, line);
        }
        match name {
            "role" => {
                let role = match (helper.params.as_slice(), helper.hash.is_empty()) {
                    ([Parameter::Literal(serde_json::Value::String(role))], true) => role.clone(),
                    _ => {
                        return Err(Broken::at(
                            line,
                            "`{{role}}` takes one quoted role: `{{role \"user\"}}` or `{{role \"model\"}}`",
                        ));
                    }
                };
                self.uses.roles.push((role, line));
                Ok(())
            }
            other => Err(unsupported_helper(other, line)),
        }
    }

    /// `{{#helper ..}}..{{else}}..{{/helper}}`.
    fn block(&mut self, helper: &HelperTemplate, depth: usize, line: usize) -> Result<(), Broken> {
        let name = raw_of(&helper.name);
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
        if !helper.hash.is_empty() {
            return Err(Broken::at(
                line,
                format!("`{{{{#{name}}}}}` takes no `key=value` options in prompt files"),
            ));
        }
        if helper.block_param.is_some() {
            return Err(Broken::at(
                line,
                format!("block parameters (`{{{{#{name} x as |y|}}}}`) are not supported"),
            ));
        }
        self.value(subject, depth, how, line)?;
        // What `{{#if x}}` shows (and `{{#unless x}}` otherwise) has `x`.
        let tested = match (name, depth, top_level(raw_of(subject), depth)) {
            ("if" | "unless", 0, Some(tested)) => Some(tested.to_owned()),
            _ => None,
        };
        let (guarded, unguarded) = match name {
            "if" => (helper.template.as_ref(), helper.inverse.as_ref()),
            "unless" => (helper.inverse.as_ref(), helper.template.as_ref()),
            _ => (None, helper.template.as_ref()),
        };
        if let Some(template) = guarded {
            let pushed = tested.is_some();
            if let Some(tested) = tested {
                self.guards.push(tested);
            }
            self.walk(template, inner, Some(line))?;
            if pushed {
                self.guards.pop();
            }
        }
        if let Some(template) = unguarded {
            self.walk(template, inner, Some(line))?;
        }
        if name != "if" && name != "unless" {
            if let Some(inverse) = &helper.inverse {
                // `{{else}}` of `each`/`with` renders in the outer context.
                self.walk(inverse, depth, Some(line))?;
            }
        }
        Ok(())
    }

    /// `{{> partial}}`, `{{> partial context}}` or `{{> partial key=value}}`.
    fn include(
        &mut self,
        partial: &DecoratorTemplate,
        depth: usize,
        line: usize,
    ) -> Result<(), Broken> {
        let name = raw_of(&partial.name).to_owned();
        if name.is_empty() {
            return Err(Broken::at(
                line,
                "a partial is named as written: `{{> name}}`",
            ));
        }
        for param in partial.params.iter().chain(partial.hash.values()) {
            self.value(param, depth, Use::Value, line)?;
        }
        // `key=value` pairs join the includer's context (Handlebars merges
        // them in); a context given (other than `this`) replaces it.
        let own_context = partial.params.iter().any(|p| raw_of(p) != "this");
        self.uses.partials.push(Inclusion {
            name,
            shares: depth == 0 && !own_context,
            given: partial.hash.keys().cloned().collect(),
            line,
        });
        Ok(())
    }

    /// Records the argument `param` reads, if it reads one from the top
    /// level.
    fn value(
        &mut self,
        param: &Parameter,
        depth: usize,
        how: Use,
        line: usize,
    ) -> Result<(), Broken> {
        let raw = match param {
            Parameter::Name(_) | Parameter::Path(_) => raw_of(param),
            Parameter::Literal(_) => return Ok(()),
            Parameter::Subexpression(sub) => {
                return Err(unsupported_helper(sub.name(), line));
            }
            _ => return Err(Broken::at(line, "this expression is not supported")),
        };
        let Some(name) = top_level(raw, depth) else {
            return Ok(());
        };
        let how = if how == Use::Value && self.guards.iter().any(|g| g == name) {
            Use::Guarded
        } else {
            how
        };
        let read = (name.to_owned(), how, line);
        if is_rooted(raw) {
            self.uses.rooted.push(read);
        } else {
            self.uses.arguments.push(read);
        }
        Ok(())
    }
}

/// Whether a path starts at the top level whatever the context: `@root`.
fn is_rooted(raw: &str) -> bool {
    raw == "@root" || raw.starts_with("@root.") || raw.starts_with("@root/")
}

/// The top-level argument a path reads, seen from `depth` blocks down:
/// `name`, `name.field`, `this.name` and `[name]` at the top level,
/// `../name` one block down, `@root.name` anywhere; `this` and `@index`
/// read no argument.
fn top_level(raw: &str, depth: usize) -> Option<&str> {
    let (mut path, mut up) = (raw, 0);
    if is_rooted(raw) {
        path = raw["@root".len()..].trim_start_matches(['.', '/']);
        up = depth;
    }
    while let Some(rest) = path.strip_prefix("../") {
        path = rest;
        up += 1;
    }
    for prefix in ["this.", "this/", "./"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            path = rest;
        }
    }
    let first = match path.strip_prefix('[') {
        Some(quoted) => quoted.split(']').next().unwrap_or_default(),
        None => path.split(['.', '/']).next().unwrap_or_default(),
    };
    let is_name = !first.is_empty() && first != "this" && !first.starts_with('@');
    (is_name && up >= depth).then_some(first)
}

fn raw_of(param: &Parameter) -> &str {
    match param {
        Parameter::Name(name) => name,
        Parameter::Path(Path::Relative((_, raw)) | Path::Local((_, _, raw))) => raw,
        _ => "",
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
                ("topic", Use::Guarded),
                ("items", Use::Each),
                ("style", Use::Value),
                ("name", Use::Value),
            ]
        );
        assert_eq!(uses.roles, [("system".to_owned(), 1)]);
        let partials: Vec<(&str, bool)> = uses
            .partials
            .iter()
            .map(|p| (p.name.as_str(), p.shares))
            .collect();
        // `key=value` pairs join the includer's context.
        assert_eq!(partials, [("footer", true), ("card", true)]);
        assert_eq!(uses.partials[1].given, ["who"]);
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
