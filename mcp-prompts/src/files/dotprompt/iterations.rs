//! A bound on the loops of one render. Output is capped as it is written,
//! but a loop may write nothing: `{{#each a}}{{#each @root.a}}{{/each}}
//! {{/each}}` over a 30,000-item argument goes round 10⁹ times in silence.
//! So each `{{#each}}` body is given a first element that calls
//! [`TICK`], a helper no template can name, which counts one iteration of
//! the render under way and stops it past [`MAX_ITERATIONS`].
//!
//! The count is the thread's: a render runs on one thread from start to
//! end ([`Iterations::count`] around it), and Handlebars gives helpers no
//! state of their own per render.

use std::cell::Cell;

use handlebars::template::{HelperTemplate, Parameter, TemplateElement, TemplateMapping};
use handlebars::{
    Context, Handlebars, Helper, HelperResult, Output, RenderContext, RenderErrorReason, Template,
};

/// The most times one render may go round its `{{#each}}` loops, all
/// loops together (partials' too).
pub(crate) const MAX_ITERATIONS: u64 = 100_000;

/// The counting helper's name: a NUL, which no template's tag can hold
/// (the file's text is cleaned of control characters).
pub(crate) const TICK: &str = "\0iteration";

thread_local! {
    /// Iterations left to the render under way on this thread.
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
}

/// Gives every `{{#each}}` body in `template` (in blocks, `else`
/// branches and partial blocks too) the counting element first.
pub(crate) fn count_iterations(template: &mut Template) {
    for element in &mut template.elements {
        match element {
            TemplateElement::HelperBlock(helper) => count_in_block(helper),
            TemplateElement::DecoratorBlock(decorator)
            | TemplateElement::PartialBlock(decorator) => {
                if let Some(inner) = &mut decorator.template {
                    count_iterations(inner);
                }
            }
            _ => {}
        }
    }
}

fn count_in_block(helper: &mut HelperTemplate) {
    if let Some(inverse) = &mut helper.inverse {
        count_iterations(inverse);
    }
    let is_each = matches!(&helper.name, Parameter::Name(name) if name == "each");
    let body = helper.template.get_or_insert_with(Template::new);
    count_iterations(body);
    if is_each {
        let (tick, at) = tick();
        body.elements.insert(0, tick);
        // Kept in step with the elements: errors take their lines from
        // it. The body's first line is the tick's.
        body.mapping
            .insert(0, body.mapping.first().cloned().unwrap_or(at));
    }
}

/// An expression calling [`TICK`], and a place for it.
fn tick() -> (TemplateElement, TemplateMapping) {
    let mut compiled = Template::compile("{{tick}}").expect("a plain expression compiles");
    let mut element = compiled.elements.remove(0);
    if let TemplateElement::Expression(helper) = &mut element {
        helper.name = Parameter::Name(TICK.to_owned());
    }
    (element, compiled.mapping.remove(0))
}

/// The iterations counted for one render.
pub(crate) struct Iterations(());

impl Iterations {
    /// Counts the iterations of the render `render` makes on this thread,
    /// at most [`MAX_ITERATIONS`]; with whether it went past them.
    pub(crate) fn count<T>(render: impl FnOnce() -> T) -> (T, bool) {
        let before = LEFT.replace(MAX_ITERATIONS);
        let _restore = Self(());
        let done = render();
        let exhausted = LEFT.get() == 0;
        LEFT.set(before);
        (done, exhausted)
    }
}

impl Drop for Iterations {
    fn drop(&mut self) {
        // A render that panicked leaves no count behind for the next.
        if std::thread::panicking() {
            LEFT.set(u64::MAX);
        }
    }
}

/// The helper [`TICK`] names: one iteration more, refused past the bound.
pub(crate) fn tick_helper(
    _: &Helper<'_>,
    _: &Handlebars<'_>,
    _: &Context,
    _: &mut RenderContext<'_, '_>,
    _: &mut dyn Output,
) -> HelperResult {
    let left = LEFT.get();
    if left == 0 {
        return Err(RenderErrorReason::Other(format!(
            "the template goes round its loops more than {MAX_ITERATIONS} times"
        ))
        .into());
    }
    LEFT.set(left - 1);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renderer(source: &str) -> Handlebars<'static> {
        let mut template = Template::compile(source).unwrap();
        count_iterations(&mut template);
        let mut registry = Handlebars::new();
        registry.register_helper(TICK, Box::new(tick_helper));
        registry.register_template("t", template);
        registry
    }

    #[test]
    fn loops_render_as_before_within_the_bound() {
        let registry = renderer(
            "{{#each a as |x i|}}{{@index}}{{x}}{{#if @last}}.{{else}},{{/if}}{{else}}none{{/each}}\
             {{#with b}}{{#each this}}[{{@key}}={{this}}]{{/each}}{{/with}}",
        );
        let data = serde_json::json!({"a": [1, 2], "b": {"k": "v"}});
        let (text, exhausted) = Iterations::count(|| registry.render("t", &data).unwrap());
        assert_eq!(text, "01,12.[k=v]");
        assert!(!exhausted);
        let empty = serde_json::json!({"a": []});
        assert_eq!(registry.render("t", &empty).unwrap(), "none");
    }

    #[test]
    fn silent_nested_loops_stop_at_the_bound() {
        let registry =
            renderer("{{#each a}}{{#if true}}{{else}}{{/if}}{{#each @root.a}}{{/each}}{{/each}}");
        let data = serde_json::json!({"a": vec![0; 1_000]});
        let (result, exhausted) = Iterations::count(|| registry.render("t", &data));
        assert!(result.is_err());
        assert!(exhausted);
        // The next render on the thread has its own count.
        let few = serde_json::json!({"a": vec![0; 300]});
        let (result, exhausted) = Iterations::count(|| registry.render("t", &few));
        assert_eq!(result.unwrap(), "");
        assert!(!exhausted);
    }
}
