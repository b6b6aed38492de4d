//! What one change is: its kind, how much it matters, and what it names.

use serde::Serialize;

/// How much a change matters to those who use the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeClass {
    /// Something that worked stops working.
    Breaking,
    /// Everything that worked still works.
    Compatible,
    /// Only what is shown changed.
    Info,
}

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ChangeKind {
    /// A prompt is gone (a renamed one is gone, and another added).
    PromptRemoved,
    /// An argument is gone: a client that sends it is refused.
    ArgumentRemoved,
    /// A new required argument: a call without it is refused.
    ArgumentAdded,
    /// An optional argument became required.
    ArgumentNowRequired,
    /// A choice is gone.
    ChoiceRemoved,
    /// The argument refuses values it took: text to integer, a free
    /// argument that gains choices, a range that narrows.
    ArgumentTypeChanged,
    /// A skill is gone.
    SkillRemoved,
    /// A new prompt.
    PromptAdded,
    /// A new optional argument.
    ArgumentAddedOptional,
    /// A required argument became optional.
    ArgumentNowOptional,
    /// A new choice.
    ChoiceAdded,
    /// The argument takes more than it did: integer to text, choices
    /// dropped for free text, a range that widens.
    ArgumentTypeWidened,
    /// A new skill.
    SkillAdded,
    /// A prompt's or an argument's title changed.
    TitleChanged,
    /// A prompt's or an argument's description changed.
    DescriptionChanged,
    /// An argument's default changed.
    DefaultChanged,
    /// A skill's files (by digest), name or description changed.
    SkillChanged,
    /// A prompt's tags changed.
    TagsChanged,
    /// A prompt gained a translation.
    LanguageAdded,
    /// A prompt lost a translation (a request that preferred it gets the
    /// default language).
    LanguageRemoved,
}

impl ChangeKind {
    /// Whether it breaks, is compatible, or is for information.
    pub fn class(self) -> ChangeClass {
        match self {
            Self::PromptRemoved
            | Self::ArgumentRemoved
            | Self::ArgumentAdded
            | Self::ArgumentNowRequired
            | Self::ChoiceRemoved
            | Self::ArgumentTypeChanged
            | Self::SkillRemoved => ChangeClass::Breaking,
            Self::PromptAdded
            | Self::ArgumentAddedOptional
            | Self::ArgumentNowOptional
            | Self::ChoiceAdded
            | Self::ArgumentTypeWidened
            | Self::SkillAdded => ChangeClass::Compatible,
            Self::TitleChanged
            | Self::DescriptionChanged
            | Self::DefaultChanged
            | Self::SkillChanged
            | Self::TagsChanged
            | Self::LanguageAdded
            | Self::LanguageRemoved => ChangeClass::Info,
        }
    }

    /// Its name in the reports: `argument-now-required`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PromptRemoved => "prompt-removed",
            Self::ArgumentRemoved => "argument-removed",
            Self::ArgumentAdded => "argument-added",
            Self::ArgumentNowRequired => "argument-now-required",
            Self::ChoiceRemoved => "choice-removed",
            Self::ArgumentTypeChanged => "argument-type-changed",
            Self::SkillRemoved => "skill-removed",
            Self::PromptAdded => "prompt-added",
            Self::ArgumentAddedOptional => "argument-added-optional",
            Self::ArgumentNowOptional => "argument-now-optional",
            Self::ChoiceAdded => "choice-added",
            Self::ArgumentTypeWidened => "argument-type-widened",
            Self::SkillAdded => "skill-added",
            Self::TitleChanged => "title-changed",
            Self::DescriptionChanged => "description-changed",
            Self::DefaultChanged => "default-changed",
            Self::SkillChanged => "skill-changed",
            Self::TagsChanged => "tags-changed",
            Self::LanguageAdded => "language-added",
            Self::LanguageRemoved => "language-removed",
        }
    }
}

/// One change, naming the prompt, argument, choice or skill it is about.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    kind: ChangeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    argument: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skill: Option<String>,
    message: String,
    /// Where the new definition is, when known (`file:line`, a file).
    #[serde(skip)]
    place: Option<String>,
}

impl Change {
    /// A change of `kind`, about what the names say, said by `message`;
    /// `place` is where the new definition is, when known.
    pub(super) fn new(
        kind: ChangeKind,
        about: (Option<String>, Option<String>, Option<String>),
        skill: Option<String>,
        message: String,
        place: Option<String>,
    ) -> Self {
        let (prompt, argument, choice) = about;
        Self {
            kind,
            prompt,
            argument,
            choice,
            skill,
            message,
            place,
        }
    }

    /// What changed.
    pub fn kind(&self) -> ChangeKind {
        self.kind
    }

    /// The prompt it is about, if any.
    pub fn prompt(&self) -> Option<&str> {
        self.prompt.as_deref()
    }

    /// The argument it is about, if any.
    pub fn argument(&self) -> Option<&str> {
        self.argument.as_deref()
    }

    /// The choice it is about, if any.
    pub fn choice(&self) -> Option<&str> {
        self.choice.as_deref()
    }

    /// The skill (its URI) it is about, if any.
    pub fn skill(&self) -> Option<&str> {
        self.skill.as_deref()
    }

    /// What changed, in a sentence.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where the new definition is, when known: `src/prompts.rs:12`, or a
    /// prompt file.
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }
}
