//! A `#[prompt]`'s texts in another language, as Fluent gives them
//! (feature `fluent`): what a prompt's view in that language shows in
//! place of its own.

use std::sync::Arc;

/// A `#[prompt]`'s texts in one language: what replaces its title, its
/// description and its arguments' titles and descriptions. A text left
/// out stays the default's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Texts {
    title: Option<String>,
    description: Option<String>,
    /// By argument name.
    arguments: Vec<(String, ArgTexts)>,
    /// A `#[prompt(template = ...)]`'s template in this language.
    template: Option<Arc<[mcp_prompts_template::Message]>>,
}

/// One argument's texts in one language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ArgTexts {
    title: Option<String>,
    description: Option<String>,
}

impl Texts {
    /// Sets the title.
    pub(crate) fn set_title(&mut self, title: String) {
        self.title = Some(title);
    }

    /// Sets the description.
    pub(crate) fn set_description(&mut self, description: String) {
        self.description = Some(description);
    }

    /// Sets argument `name`'s title or, when not `title`, description.
    pub(crate) fn set_argument(&mut self, name: &str, title: bool, text: String) {
        let at = match self.arguments.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                self.arguments.push((name.to_owned(), ArgTexts::default()));
                self.arguments.len() - 1
            }
        };
        let texts = &mut self.arguments[at].1;
        if title {
            texts.title = Some(text);
        } else {
            texts.description = Some(text);
        }
    }

    /// Sets the template, parsed.
    pub(crate) fn set_template(&mut self, template: Vec<mcp_prompts_template::Message>) {
        self.template = Some(template.into());
    }

    /// The template in this language, for a template prompt given one.
    pub(crate) fn template(&self) -> Option<&[mcp_prompts_template::Message]> {
        self.template.as_deref()
    }

    pub(crate) fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    pub(crate) fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Argument `name`'s title and description, each if translated.
    pub(crate) fn argument(&self, name: &str) -> (Option<&str>, Option<&str>) {
        self.arguments
            .iter()
            .find(|(n, _)| n == name)
            .map_or((None, None), |(_, t)| {
                (t.title.as_deref(), t.description.as_deref())
            })
    }
}
