//! How a test's user answers the questions prompts ask: values by field, a
//! closure, or a refusal, the same whichever way the revision asks (an
//! `elicitation/create` request in a session, an "input required" round in
//! 2026-07-28).

use std::sync::Arc;

use serde_json::{Map, Value, json};

/// A question a prompt asks its user: an `elicitation/create` form.
#[derive(Clone, Debug)]
pub struct Question {
    message: String,
    schema: Value,
}

impl Question {
    pub(crate) fn of(params: &Value) -> Self {
        Self {
            message: params["message"].as_str().unwrap_or_default().to_owned(),
            schema: params["requestedSchema"].clone(),
        }
    }

    /// What the user is told.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The names of the form's fields.
    pub fn fields(&self) -> Vec<&str> {
        self.schema["properties"]
            .as_object()
            .map(|fields| fields.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    /// The form's JSON schema (`requestedSchema`).
    pub fn schema(&self) -> &Value {
        &self.schema
    }
}

/// What the user does with a question.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Fills the form in with these values.
    Accept(Map<String, Value>),
    /// Says no.
    Decline,
    /// Dismisses it.
    Cancel,
}

impl Answer {
    /// The `ElicitResult` a client sends.
    pub(crate) fn to_result(&self) -> Value {
        match self {
            Self::Accept(content) => json!({"action": "accept", "content": content}),
            Self::Decline => json!({"action": "decline"}),
            Self::Cancel => json!({"action": "cancel"}),
        }
    }
}

/// How a [`Client`](super::Client) answers every question: give it with
/// [`Client::answering`](super::Client::answering).
///
/// ```
/// use mcp_prompts::testing::{Answer, Answers};
/// use serde_json::json;
///
/// // Each field a form has is filled from these; fields not given stay empty.
/// let by_field = Answers::fields([("environment", json!("production")), ("canary", json!(true))]);
/// // Or decided per question.
/// let custom = Answers::with(|question| {
///     if question.message().contains("deploy") { Answer::Decline } else { Answer::Cancel }
/// });
/// let no = Answers::decline();
/// ```
#[derive(Clone)]
pub struct Answers(Arc<dyn Fn(&Question) -> Answer + Send + Sync>);

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Answers(..)")
    }
}

impl Answers {
    /// Accepts every form, filling each field it has from `values`.
    pub fn fields<I, K>(values: I) -> Self
    where
        I: IntoIterator<Item = (K, Value)>,
        K: Into<String>,
    {
        let values: Map<String, Value> = values.into_iter().map(|(k, v)| (k.into(), v)).collect();
        Self::with(move |question| {
            let content = question
                .fields()
                .into_iter()
                .filter_map(|field| Some((field.to_owned(), values.get(field)?.clone())))
                .collect();
            Answer::Accept(content)
        })
    }

    /// Answers each question as `answer` decides.
    pub fn with(answer: impl Fn(&Question) -> Answer + Send + Sync + 'static) -> Self {
        Self(Arc::new(answer))
    }

    /// Declines every question.
    pub fn decline() -> Self {
        Self::with(|_| Answer::Decline)
    }

    /// Dismisses every question.
    pub fn cancel() -> Self {
        Self::with(|_| Answer::Cancel)
    }

    pub(crate) fn answer(&self, question: &Question) -> Answer {
        (self.0)(question)
    }
}
