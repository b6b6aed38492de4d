//! Which prompts a server serves, by their tags
//! ([`Server::only_tags`](crate::Server::only_tags),
//! [`Server::without_tags`](crate::Server::without_tags)); kept by a live
//! catalog for the prompts added later.

use super::AnyPrompt;

#[derive(Clone, Debug, Default)]
pub(crate) struct TagFilter {
    /// A prompt must carry one of these, unless it is empty.
    only: Vec<String>,
    /// A prompt must carry none of these.
    without: Vec<String>,
}

impl TagFilter {
    /// Serves only prompts carrying one of `tags` too.
    pub(crate) fn only(&mut self, tags: impl IntoIterator<Item = String>) {
        self.only.extend(tags);
    }

    /// Serves no prompt carrying one of `tags` either.
    pub(crate) fn without(&mut self, tags: impl IntoIterator<Item = String>) {
        self.without.extend(tags);
    }

    pub(crate) fn admits(&self, prompt: &AnyPrompt) -> bool {
        if self.only.is_empty() && self.without.is_empty() {
            return true;
        }
        let tags = prompt.tags();
        let has = |wanted: &[String]| tags.iter().any(|tag| wanted.iter().any(|w| w == tag));
        (self.only.is_empty() || has(&self.only)) && !has(&self.without)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamic::DynamicPrompt;

    fn tagged(tags: &[&str]) -> AnyPrompt {
        let prompt = DynamicPrompt::builder("p").tags(tags.iter().copied());
        prompt.template("x").build().unwrap().into()
    }

    #[test]
    fn only_and_without_choose_by_tag() {
        let filter = |only: &[&str], without: &[&str]| TagFilter {
            only: only.iter().map(|&s| s.to_owned()).collect(),
            without: without.iter().map(|&s| s.to_owned()).collect(),
        };
        let git = tagged(&["git", "review"]);
        let plain = tagged(&[]);
        assert!(filter(&[], &[]).admits(&plain));
        assert!(filter(&["git"], &[]).admits(&git));
        assert!(!filter(&["git"], &[]).admits(&plain));
        assert!(!filter(&[], &["review"]).admits(&git));
        assert!(filter(&[], &["review"]).admits(&plain));
        assert!(!filter(&["git"], &["review"]).admits(&git));
    }
}
