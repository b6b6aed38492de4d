//! `completion/complete`: finds the argument's completer, runs it, and
//! shapes the values (prefix filter or ranking, the 100 cap, `total`,
//! `hasMore`).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::value::RawValue;

use super::guard::{CatchPanic, Culprit, call_catching};
use super::handlers::unknown_prompt;
use super::{Reply, Session};
use crate::Error;
use crate::args::Arguments;
use crate::catalog::{AnyPrompt, Entry, Kind};
use crate::complete::{ArgCompletion, CompletionCall, CompletionInput, MAX_VALUES, Matches};
use crate::complete::{fold, rank, starts_with_folded};
use crate::error::excerpt;
use crate::protocol::jsonrpc::{failure, success};
use crate::protocol::{cow_str, optional_cow_str};

#[derive(Deserialize)]
struct CompleteParams<'a> {
    #[serde(rename = "ref", borrow)]
    reference: Reference<'a>,
    #[serde(borrow)]
    argument: Argument<'a>,
    #[serde(default, borrow)]
    context: Option<Context<'a>>,
}

#[derive(Deserialize)]
struct Reference<'a> {
    #[serde(rename = "type", borrow, deserialize_with = "cow_str")]
    kind: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    uri: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Argument<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    name: Cow<'a, str>,
    #[serde(borrow, deserialize_with = "cow_str")]
    value: Cow<'a, str>,
}

#[derive(Deserialize)]
struct Context<'a> {
    #[serde(default, borrow)]
    arguments: Arguments<'a>,
}

impl Session {
    pub(super) fn complete(&self, id: &RawValue, raw: Option<&RawValue>) -> Reply {
        let fail = |error: Error| Reply::Now(failure(Some(id), &error));
        let inner = self.service.inner();
        if !inner.completions {
            return fail(Error::new(
                Error::METHOD_NOT_FOUND,
                "completion/complete is not supported: this server declares no completions",
            ));
        }
        let text = raw.map_or("{}", RawValue::get);
        let p: CompleteParams<'_> = match serde_json::from_str(text) {
            Ok(p) => p,
            Err(err) => return fail(Error::bad_params(&err)),
        };
        let typed = &*p.argument.value;
        match (&*p.reference.kind, &p.reference.name, &p.reference.uri) {
            ("ref/prompt", Some(name), _) => {
                let served = self.service.served();
                let Some(entry) = served.get(name) else {
                    return fail(unknown_prompt(name));
                };
                // Fixed lists are answered from their index, with nothing
                // copied; only a function gets an input of its own.
                match entry.completion(&p.argument.name) {
                    None | Some(ArgCompletion::Nothing) => Reply::Now(result(id, &empty())),
                    Some(ArgCompletion::Index(index)) => {
                        Reply::Now(result(id, &index.complete(typed)))
                    }
                    Some(ArgCompletion::Choices(choices)) => {
                        // As an enum's choices: matches only, exact first.
                        let folded = fold(typed);
                        let matching = choices
                            .iter()
                            .filter(|c| starts_with_folded(c, &folded))
                            .cloned()
                            .collect();
                        Reply::Now(result(id, &rank(matching, typed)))
                    }
                    Some(ArgCompletion::Call(call)) => {
                        let input = prompt_input(&p, &entry.prompt);
                        self.finish(id, culprit(entry), input, *call)
                    }
                    Some(ArgCompletion::Dyn(completer)) => {
                        let input = prompt_input(&p, &entry.prompt);
                        let completer = completer.clone();
                        self.finish(id, culprit(entry), input, move |i| completer.call(i))
                    }
                }
            }
            ("ref/resource", _, Some(uri)) => {
                let Some(resources) = &inner.resources else {
                    return fail(
                        Error::invalid_params(format!(
                            "no resource templates are served, so `{}` cannot be completed",
                            excerpt(uri)
                        ))
                        .with_data(json!({ "uri": excerpt(uri) })),
                    );
                };
                let mut input = owned_input(&p);
                input.uri = Some(uri.to_string());
                let resources = resources.clone();
                let culprit = Culprit {
                    kind: "completer of",
                    name: "resource templates".into(),
                };
                self.finish(id, culprit, input, move |input| resources.call(input))
            }
            ("ref/prompt", None, _) => fail(Error::invalid_params("`ref/prompt` needs a `name`")),
            ("ref/resource", _, None) => {
                fail(Error::invalid_params("`ref/resource` needs a `uri`"))
            }
            (other, _, _) => fail(Error::invalid_params(format!(
                "unknown reference type `{}`: expected `ref/prompt` or `ref/resource`",
                excerpt(other)
            ))),
        }
    }

    /// Runs a completer, catching panics, and answers now or later.
    fn finish(
        &self,
        id: &RawValue,
        culprit: Culprit,
        input: CompletionInput,
        call: impl FnOnce(CompletionInput) -> CompletionCall,
    ) -> Reply {
        let typed = input.value.clone();
        let service = self.service.clone();
        let shape = move |source| service.inner().static_indexes.matches(source, &typed);
        match call_catching(&culprit, || Ok(call(input))) {
            Err(error) => Reply::Now(failure(Some(id), &error)),
            Ok(CompletionCall::Ready(outcome)) => Reply::Now(match outcome {
                Ok(source) => result(id, &shape(source)),
                Err(error) => failure(Some(id), &error),
            }),
            Ok(CompletionCall::Pending(future)) => {
                let id = id.to_owned();
                let future = CatchPanic { culprit, future };
                Reply::Later(Box::pin(async move {
                    Some(match future.await {
                        Ok(source) => result(&id, &shape(source)),
                        Err(error) => failure(Some(&id), &error),
                    })
                }))
            }
        }
    }
}

/// Who to blame if a prompt's completer panics.
fn culprit(entry: &Entry) -> Culprit {
    Culprit::of("completer of prompt", &entry.prompt)
}

/// What a prompt argument's completer is given.
fn prompt_input(p: &CompleteParams<'_>, prompt: &AnyPrompt) -> CompletionInput {
    let mut input = owned_input(p);
    input.prompt_name = Some(prompt.name().to_owned());
    if let Kind::Macro(def) = prompt.0 {
        input.prompt = Some(def);
    }
    input
}

/// What a completer function is given: owned, so an async one's future
/// can keep it.
fn owned_input(p: &CompleteParams<'_>) -> CompletionInput {
    let filled = p
        .context
        .as_ref()
        .map(|c| {
            c.arguments
                .iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect()
        })
        .unwrap_or_default();
    CompletionInput {
        prompt: None,
        prompt_name: None,
        uri: None,
        argument: p.argument.name.to_string(),
        value: p.argument.value.to_string(),
        filled,
    }
}

fn empty() -> Matches<&'static str> {
    Matches {
        values: Vec::new(),
        total: 0,
    }
}

#[derive(Serialize)]
struct CompleteResult<'a, T> {
    completion: CompletionValues<'a, T>,
}

#[derive(Serialize)]
struct CompletionValues<'a, T> {
    values: &'a [T],
    total: usize,
    #[serde(rename = "hasMore")]
    has_more: bool,
}

fn result<T: Serialize>(id: &RawValue, found: &Matches<T>) -> String {
    let values = &found.values[..found.values.len().min(MAX_VALUES)];
    let completion = CompletionValues {
        values,
        total: found.total,
        has_more: found.total > values.len(),
    };
    success(id, &CompleteResult { completion })
}
