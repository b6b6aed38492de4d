//! Variant names to argument values: `#[prompt_arg(rename_all = "...")]`,
//! with the rules and spellings serde uses.

use proc_macro2::Span;

#[derive(Clone, Copy)]
pub enum Case {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

const ALL: [(&str, Case); 8] = [
    ("lowercase", Case::Lower),
    ("UPPERCASE", Case::Upper),
    ("PascalCase", Case::Pascal),
    ("camelCase", Case::Camel),
    ("snake_case", Case::Snake),
    ("SCREAMING_SNAKE_CASE", Case::ScreamingSnake),
    ("kebab-case", Case::Kebab),
    ("SCREAMING-KEBAB-CASE", Case::ScreamingKebab),
];

impl Case {
    pub fn parse(text: &str, span: Span) -> syn::Result<Self> {
        ALL.iter()
            .find(|(name, _)| *name == text)
            .map(|(_, case)| *case)
            .ok_or_else(|| {
                let names: Vec<String> = ALL.iter().map(|(n, _)| format!("`{n}`")).collect();
                syn::Error::new(
                    span,
                    format!(
                        "unknown `rename_all` rule `{text}`; expected one of {}",
                        names.join(", ")
                    ),
                )
            })
    }

    /// Applies the rule to a `PascalCase` variant name.
    pub fn apply(self, variant: &str) -> String {
        match self {
            Self::Lower => variant.to_ascii_lowercase(),
            Self::Upper => variant.to_ascii_uppercase(),
            Self::Pascal => variant.to_owned(),
            Self::Camel => {
                let mut chars = variant.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_lowercase().to_string() + chars.as_str()
                })
            }
            Self::Snake => separated(variant, '_'),
            Self::ScreamingSnake => separated(variant, '_').to_ascii_uppercase(),
            Self::Kebab => separated(variant, '-'),
            Self::ScreamingKebab => separated(variant, '-').to_ascii_uppercase(),
        }
    }
}

/// `HttpServer` -> `http_server`: a separator before every capital but the first.
fn separated(variant: &str, separator: char) -> String {
    let mut out = String::with_capacity(variant.len() + 4);
    for (i, c) in variant.char_indices() {
        if i > 0 && c.is_uppercase() {
            out.push(separator);
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_match_serde() {
        assert_eq!(Case::Snake.apply("HttpServer"), "http_server");
        assert_eq!(Case::Kebab.apply("HttpServer"), "http-server");
        assert_eq!(Case::ScreamingSnake.apply("HttpServer"), "HTTP_SERVER");
        assert_eq!(Case::Camel.apply("HttpServer"), "httpServer");
        assert_eq!(Case::Lower.apply("HttpServer"), "httpserver");
        assert_eq!(Case::Snake.apply("A"), "a");
    }
}
