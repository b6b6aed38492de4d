//! The work a dotprompt template may cost, bounded where it is spent:
//!
//! - compiling: Handlebars' compiler spends, for each tag, time in
//!   proportion to the text before it, so the tags a template may hold are
//!   counted (every `{{`, wherever it stands) before it is compiled;
//! - nesting: Handlebars renders recursively, one level for each block,
//!   each `{{else if}}` link (it nests a chain's links one inside the
//!   other), each partial and each subexpression. The depth is measured on
//!   the compiled template, which holds every form the syntax has, and a
//!   renderer is only built for templates whose depth with their partials
//!   is within [`MAX_NESTING`], so no render can exhaust a thread's stack;
//! - output: what a render writes is capped as it is written
//!   ([`Capped`]), so a template that repeats its arguments cannot spend
//!   more memory than the cap.

use std::collections::HashMap;
use std::io;

use handlebars::Template;
use handlebars::template::{DecoratorTemplate, HelperTemplate, Parameter, TemplateElement};

use crate::files::front_matter::Broken;

/// How deep a render may nest: blocks, `{{else if}}` links, partials and
/// subexpressions counted together, along every path of inclusions.
pub(crate) const MAX_NESTING: usize = 64;

/// The most tags (`{{`) one template (a prompt's or a partial's) may hold.
pub(crate) const MAX_TAGS: usize = 1_000;

/// The most compile work one template may take: the sum, over its tags, of
/// the bytes before each (about 0.1 s in a release build). Splitting a
/// long template into partials resets it.
const MAX_TAG_WORK: usize = 32 << 20;

/// Refuses a template whose tags would take too long to compile, on the
/// line of the first tag past the bound.
pub(crate) fn check_tags(source: &str) -> Result<(), Broken> {
    let mut work = 0usize;
    for (count, at) in memchr::memmem::find_iter(source.as_bytes(), b"{{").enumerate() {
        work = work.saturating_add(at);
        let message = if count >= MAX_TAGS {
            format!("the template has more than {MAX_TAGS} tags; split it into partials")
        } else if work > MAX_TAG_WORK {
            format!(
                "the template has too many tags for its length ({} tags in {} bytes); split it into partials",
                count + 1,
                source.len()
            )
        } else {
            continue;
        };
        let line = source[..at].matches('\n').count() + 1;
        return Err(Broken::at(line, message));
    }
    Ok(())
}

/// Why a template nests too deep: the line (the template's own, from 1)
/// of the top-level element whose render goes past [`MAX_NESTING`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TooDeep {
    line: usize,
}

impl TooDeep {
    /// The problem, on the line of a template whose first line is the
    /// file's `first_line`.
    pub(crate) fn broken(&self, first_line: usize) -> Broken {
        Broken::at(
            self.line + first_line - 1,
            format!(
                "the template nests more than {MAX_NESTING} deep here (blocks, `else if` links and partials counted together)"
            ),
        )
    }
}

/// Checks how deep rendering `template` nests, with the partials that
/// `partial` finds by name (`None` for a name it does not know, counted
/// as one level). The walk stops as soon as the depth passes the limit,
/// so it runs in bounded stack whatever the template; each partial is
/// measured once however often it is included.
pub(crate) fn check_depth<'a>(
    template: &'a Template,
    partial: &dyn Fn(&str) -> Option<&'a Template>,
) -> Result<(), TooDeep> {
    let mut walk = Depth {
        partial,
        measured: HashMap::new(),
    };
    for (index, element) in template.elements.iter().enumerate() {
        if walk.element(element, 0).is_err() {
            let line = template.mapping.get(index).map_or(1, |at| at.0);
            return Err(TooDeep { line });
        }
    }
    Ok(())
}

/// A walk measuring depth: each partial's own depth once measured, and
/// `None` while it is being measured (a partial reached again through
/// itself nests without end).
struct Depth<'a, 'p> {
    partial: &'p dyn Fn(&str) -> Option<&'a Template>,
    measured: HashMap<&'a str, Option<usize>>,
}

/// The depth passed the limit.
struct Past;

impl<'a> Depth<'a, '_> {
    /// The deepest level `template`'s elements reach, at `depth`.
    fn template(&mut self, template: &'a Template, depth: usize) -> Result<usize, Past> {
        let mut deepest = depth;
        for element in &template.elements {
            deepest = deepest.max(self.element(element, depth)?);
        }
        Ok(deepest)
    }

    fn element(&mut self, element: &'a TemplateElement, depth: usize) -> Result<usize, Past> {
        match element {
            TemplateElement::RawString(_) | TemplateElement::Comment(_) => Ok(depth),
            TemplateElement::Expression(helper)
            | TemplateElement::HtmlExpression(helper)
            | TemplateElement::HelperBlock(helper) => self.helper(helper, depth),
            TemplateElement::PartialExpression(partial)
            | TemplateElement::PartialBlock(partial) => {
                let inner = self.decorator(partial, depth)?;
                Ok(inner.max(self.include(&partial.name, depth)?))
            }
            TemplateElement::DecoratorExpression(decorator)
            | TemplateElement::DecoratorBlock(decorator) => self.decorator(decorator, depth),
            // A kind of element a later Handlebars adds: one level, to be
            // safe (the analysis refuses what it does not know).
            _ => below(depth),
        }
    }

    fn helper(&mut self, helper: &'a HelperTemplate, depth: usize) -> Result<usize, Past> {
        let blocks = [&helper.template, &helper.inverse];
        let params = std::iter::once(&helper.name).chain(&helper.params);
        let blocks = blocks.into_iter().flatten().filter(|_| helper.block);
        self.tag(params.chain(helper.hash.values()), blocks, depth)
    }

    fn decorator(&mut self, decorator: &'a DecoratorTemplate, depth: usize) -> Result<usize, Past> {
        let params = std::iter::once(&decorator.name).chain(&decorator.params);
        let params = params.chain(decorator.hash.values());
        self.tag(params, decorator.template.iter(), depth)
    }

    /// A tag at `depth`: its subexpressions among `params`, and the
    /// `blocks` it holds, each one level below.
    fn tag(
        &mut self,
        params: impl Iterator<Item = &'a Parameter>,
        blocks: impl Iterator<Item = &'a Template>,
        depth: usize,
    ) -> Result<usize, Past> {
        let mut deepest = self.parameters(params, depth)?;
        for template in blocks {
            deepest = deepest.max(self.template(template, below(depth)?)?);
        }
        Ok(deepest)
    }

    /// Subexpressions among `params`: each one level below the tag.
    fn parameters(
        &mut self,
        params: impl Iterator<Item = &'a Parameter>,
        depth: usize,
    ) -> Result<usize, Past> {
        let mut deepest = depth;
        for param in params {
            if let Parameter::Subexpression(sub) = param {
                deepest = deepest.max(self.element(&sub.element, below(depth)?)?);
            }
        }
        Ok(deepest)
    }

    /// The partial `name` included at `depth`: one level, and its own.
    fn include(&mut self, name: &'a Parameter, depth: usize) -> Result<usize, Past> {
        let inner = below(depth)?;
        let Parameter::Name(name) = name else {
            return Ok(inner);
        };
        let Some(template) = (self.partial)(name) else {
            return Ok(inner);
        };
        let own = match self.measured.get(name.as_str()) {
            Some(Some(own)) => *own,
            Some(None) => return Err(Past),
            None => {
                self.measured.insert(name, None);
                let own = self.template(template, inner)? - inner;
                self.measured.insert(name, Some(own));
                own
            }
        };
        let deepest = inner + own;
        if deepest > MAX_NESTING {
            return Err(Past);
        }
        Ok(deepest)
    }
}

/// The level below `depth`, if within the limit.
fn below(depth: usize) -> Result<usize, Past> {
    if depth >= MAX_NESTING {
        Err(Past)
    } else {
        Ok(depth + 1)
    }
}

/// A render's output, refused past `cap` bytes: the render stops there,
/// before the memory is spent. A role mark (`{{role}}`'s two NULs) starts
/// a message, and counts as a message's JSON
/// ([`BLOCK_BYTES`](crate::content::BLOCK_BYTES)), as the result's own
/// check counts it: a loop of role marks makes many small messages.
pub(crate) struct Capped {
    text: Vec<u8>,
    cap: usize,
    /// What was written, with role marks counted as messages.
    spent: usize,
    /// Whether a write was refused.
    full: bool,
}

impl Capped {
    pub(crate) fn new(cap: usize) -> Self {
        Self {
            text: Vec::new(),
            cap,
            spent: 0,
            full: false,
        }
    }

    /// Whether the render wrote more than the cap (and was stopped).
    pub(crate) fn is_full(&self) -> bool {
        self.full
    }

    /// What was written (whole UTF-8, since Handlebars writes `str`s).
    pub(crate) fn into_text(self) -> String {
        String::from_utf8(self.text)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

impl io::Write for Capped {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let marks = memchr::memchr_iter(0, bytes).count();
        let spent = self
            .spent
            .saturating_add(bytes.len())
            .saturating_add(marks * (crate::content::BLOCK_BYTES / 2));
        if spent > self.cap {
            self.full = true;
            return Err(io::Error::other(
                "the rendered result is larger than the cap",
            ));
        }
        self.spent = spent;
        self.text.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_of(source: &str, partials: &[(&str, &str)]) -> Result<(), TooDeep> {
        let compiled: Vec<(String, Template)> = partials
            .iter()
            .map(|(name, text)| ((*name).to_owned(), Template::compile(text).unwrap()))
            .collect();
        let template = Template::compile(source).unwrap();
        check_depth(&template, &|name| {
            compiled.iter().find(|(n, _)| n == name).map(|(_, t)| t)
        })
    }

    fn nested(open: &str, levels: usize, close: &str) -> String {
        format!("{}x{}", open.repeat(levels), close.repeat(levels))
    }

    #[test]
    fn every_form_of_block_counts() {
        for (open, close) in [
            ("{{#if a}}", "{{/if}}"),
            ("{{ #if a}}", "{{/if}}"),
            ("{{~# if a ~}}", "{{~ /if~}}"),
            ("{{#unless a}}", "{{/unless}}"),
            ("{{#each a}}", "{{/each}}"),
        ] {
            assert!(depth_of(&nested(open, 64, close), &[]).is_ok(), "{open}");
            let deep = format!("a\n{}", nested(open, 65, close));
            assert_eq!(depth_of(&deep, &[]), Err(TooDeep { line: 2 }), "{open}");
        }
        // Each `else if` link nests inside the one before.
        let chain = |links: usize| {
            format!(
                "{{{{#if a}}}}x{}{{{{/if}}}}",
                "{{else if b}}y".repeat(links)
            )
        };
        assert!(depth_of(&chain(63), &[]).is_ok());
        assert!(depth_of(&chain(64), &[]).is_err());
        // An inverse without a condition does not nest.
        let plain = format!("{{{{#if a}}}}x{}{{{{/if}}}}", "{{else}}y");
        assert!(depth_of(&plain, &[]).is_ok());
    }

    #[test]
    fn partials_add_their_depth_to_where_they_are_included() {
        let half = nested("{{#if a}}", 32, "{{/if}}");
        let including = nested("{{#if a}}", 31, "{{/if}}").replace('x', "{{> half}}");
        assert!(depth_of(&including, &[("half", &half)]).is_ok());
        let deeper = nested("{{#if a}}", 32, "{{/if}}").replace('x', "{{> half}}");
        assert!(depth_of(&deeper, &[("half", &half)]).is_err());
        // Sixteen partials of 60 levels each, included in turn.
        let mut partials: Vec<(String, String)> = (0..16)
            .map(|i| {
                let body = nested("{{#if a}}", 60, "{{/if}}")
                    .replace('x', &format!("{{{{> p{}}}}}", i + 1));
                (format!("p{i}"), body)
            })
            .collect();
        partials.push(("p16".into(), "end".into()));
        let partials: Vec<(&str, &str)> = partials
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        assert!(depth_of("{{> p0}}", &partials).is_err());
        // A partial reached through itself nests without end.
        assert!(depth_of("{{> me}}", &[("me", "{{> me}}")]).is_err());
        // Included many times, measured once.
        let wide = "{{> leaf}}".repeat(500);
        assert!(depth_of(&wide, &[("leaf", "x")]).is_ok());
    }

    #[test]
    fn subexpressions_nest() {
        let deep = format!("{{{{x {}y{}}}}}", "(f ".repeat(70), ")".repeat(70));
        if let Ok(template) = Template::compile(&deep) {
            assert!(check_depth(&template, &|_| None).is_err());
        }
    }

    #[test]
    fn tags_are_counted_before_compiling() {
        assert!(check_tags(&"{{a}}".repeat(MAX_TAGS)).is_ok());
        let many = format!("x\n{}", "{{a}}".repeat(MAX_TAGS + 1));
        let broken = check_tags(&many).unwrap_err();
        assert_eq!(broken.line, Some(2));
        assert!(
            broken.message.contains("more than 1000 tags"),
            "{}",
            broken.message
        );
        // A few hundred tags after a long text cost as much to compile.
        let late = format!("{}{}", "lorem ipsum\n".repeat(80_000), "{{a}}".repeat(100));
        let broken = check_tags(&late).unwrap_err();
        assert!(
            broken.message.contains("too many tags for its length"),
            "{}",
            broken.message
        );
    }

    #[test]
    fn output_stops_at_the_cap() {
        use std::io::Write as _;
        let mut out = Capped::new(8);
        out.write_all(b"12345").unwrap();
        assert!(!out.is_full());
        assert!(out.write_all(b"6789").is_err());
        assert!(out.is_full());
        assert_eq!(out.into_text(), "12345");
        // Role marks count as the messages they start.
        let block = crate::content::BLOCK_BYTES;
        let mut out = Capped::new(3 * block);
        for _ in 0..2 {
            out.write_all(b"\0user\0hi").unwrap();
        }
        assert!(out.write_all(b"\0user\0hi").is_err());
    }
}
