//! `completion/complete`: finds the argument's completer, runs it, and
//! shapes the values (prefix filter or ranking, the 100 cap, `total`,
//! `hasMore`).

use crate::caller::Access;
use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::value::RawValue;

use super::methods::unknown_prompt;
use super::panics::{CatchPanic, Culprit, call_catching};
use super::{Era, Reply, Service, Session};
use crate::catalog::{AnyPrompt, ArgCompletion, Definition};
use crate::complete::{MAX_VALUES, Matches, fold, rank, starts_with_folded};
use crate::descriptor::{CompletionCall, CompletionInput};
use crate::error::{Error, excerpt};
use crate::invoke::BoxedResult;
use crate::protocol::jsonrpc::failure;
use crate::protocol::{Arguments, cow_str, optional_cow_str};

#[derive(Deserialize)]
struct CompleteParams<'a> {
    #[serde(rename = "ref", borrow)]
    reference: WireReference<'a>,
    #[serde(borrow)]
    argument: Argument<'a>,
    #[serde(default, borrow)]
    context: Option<Context<'a>>,
}

#[derive(Deserialize)]
struct WireReference<'a> {
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

/// What is being completed, whichever way the request arrived.
pub(crate) struct Query<'a> {
    /// `ref/prompt` (a prompt's name) or `ref/resource` (a URI template).
    pub(crate) reference: Reference<'a>,
    pub(crate) argument: &'a str,
    pub(crate) value: &'a str,
    /// The arguments the user already filled in.
    pub(crate) filled: Vec<(String, String)>,
    /// Who asks: a prompt hidden from them completes as an unknown one.
    pub(crate) access: &'a Access,
}

pub(crate) enum Reference<'a> {
    Prompt(&'a str),
    Resource(&'a str),
}

/// Completion values, now or later.
pub(crate) enum Completed {
    Now(Result<Matches<String>, Error>),
    Later(BoxedResult<Matches<String>>),
}

impl Session {
    pub(super) fn complete(
        &self,
        id: &RawValue,
        era: Era,
        raw: Option<&RawValue>,
        access: &Access,
    ) -> Reply {
        let fail = |error: Error| Reply::Now(failure(Some(id), &error));
        let text = raw.map_or("{}", RawValue::get);
        let p: CompleteParams<'_> = match serde_json::from_str(text) {
            Ok(p) => p,
            Err(err) => return fail(Error::bad_params(&err)),
        };
        let reference = match (&*p.reference.kind, &p.reference.name, &p.reference.uri) {
            ("ref/prompt", Some(name), _) => Reference::Prompt(name),
            ("ref/resource", _, Some(uri)) => Reference::Resource(uri),
            ("ref/prompt", None, _) => {
                return fail(Error::invalid_params("`ref/prompt` needs a `name`"));
            }
            ("ref/resource", _, None) => {
                return fail(Error::invalid_params("`ref/resource` needs a `uri`"));
            }
            (other, _, _) => {
                return fail(Error::invalid_params(format!(
                    "unknown reference type `{}`: expected `ref/prompt` or `ref/resource`",
                    excerpt(other)
                )));
            }
        };
        // A fixed list is answered from its index, with nothing copied.
        if let Reference::Prompt(name) = reference {
            let served = self.service.served();
            if let Some(ArgCompletion::Index(index)) = served
                .get(name, access)
                .and_then(|entry| entry.completion(&p.argument.name))
            {
                let found = index.complete(&p.argument.value);
                return Reply::Now(self.service.result(id, era, &CompleteResult::of(&found)));
            }
        }
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
        let query = Query {
            reference,
            argument: &p.argument.name,
            value: &p.argument.value,
            filled,
            access,
        };
        match self.service.complete(&query) {
            Completed::Now(outcome) => Reply::Now(answer(&self.service, id, era, outcome)),
            Completed::Later(future) => {
                let (service, id) = (self.service.clone(), id.to_owned());
                Reply::Later(Box::pin(async move {
                    Some(answer(&service, &id, era, future.await))
                }))
            }
        }
    }
}

impl Service {
    /// Completes an argument of a prompt or a resource template; the
    /// transport-neutral core of `completion/complete`.
    pub(crate) fn complete(&self, query: &Query<'_>) -> Completed {
        let inner = self.inner();
        let input = |prompt: Option<&AnyPrompt>, uri: Option<&str>| CompletionInput {
            prompt: prompt.and_then(|p| match p.0 {
                Definition::Macro(def) => Some(def),
                Definition::Dynamic(_) => None,
            }),
            prompt_name: prompt.map(|p| p.name().to_owned()),
            uri: uri.map(str::to_owned),
            argument: query.argument.to_owned(),
            value: query.value.to_owned(),
            filled: query.filled.clone(),
        };
        let typed = query.value;
        match query.reference {
            Reference::Prompt(name) => {
                let served = self.served();
                let Some(entry) = served.get(name, query.access) else {
                    return Completed::Now(Err(unknown_prompt(name)));
                };
                let culprit = Culprit::of("completer of prompt", &entry.prompt);
                match entry.completion(query.argument) {
                    None | Some(ArgCompletion::Nothing) => Completed::Now(Ok(Matches {
                        values: Vec::new(),
                        total: 0,
                    })),
                    Some(ArgCompletion::Index(index)) => {
                        let found = index.complete(typed);
                        let values = found.values.into_iter().map(str::to_owned).collect();
                        Completed::Now(Ok(Matches {
                            values,
                            total: found.total,
                        }))
                    }
                    Some(ArgCompletion::Choices(choices)) => {
                        // As an enum's choices: matches only, exact first.
                        let folded = fold(typed);
                        let matching = choices
                            .iter()
                            .filter(|c| starts_with_folded(c, &folded))
                            .cloned()
                            .collect();
                        Completed::Now(Ok(rank(matching, typed)))
                    }
                    Some(ArgCompletion::Call(call)) => {
                        let input = input(Some(&entry.prompt), None);
                        self.run_completer(culprit, input, *call)
                    }
                    Some(ArgCompletion::Dyn(completer)) => {
                        let input = input(Some(&entry.prompt), None);
                        let completer = completer.clone();
                        self.run_completer(culprit, input, move |i| completer.call(i))
                    }
                }
            }
            Reference::Resource(uri) => {
                let Some(resources) = &inner.resources else {
                    return Completed::Now(Err(Error::invalid_params(format!(
                        "no resource templates are served, so `{}` cannot be completed",
                        excerpt(uri)
                    ))
                    .with_data(json!({ "uri": excerpt(uri) }))));
                };
                let resources = resources.clone();
                let culprit = Culprit {
                    kind: "completer of",
                    name: "resource templates".into(),
                };
                self.run_completer(culprit, input(None, Some(uri)), move |i| resources.call(i))
            }
        }
    }

    /// Runs a completer, catching panics, and shapes its values.
    fn run_completer(
        &self,
        culprit: Culprit,
        input: CompletionInput,
        call: impl FnOnce(CompletionInput) -> CompletionCall,
    ) -> Completed {
        let typed = input.value.clone();
        let service = self.clone();
        let shape = move |source| service.inner().static_indexes.matches(source, &typed);
        match call_catching(&culprit, || Ok(call(input))) {
            Err(error) => Completed::Now(Err(error)),
            Ok(CompletionCall::Ready(outcome)) => Completed::Now(outcome.map(shape)),
            Ok(CompletionCall::Pending(future)) => {
                let future = CatchPanic { culprit, future };
                Completed::Later(Box::pin(async move { future.await.map(shape) }))
            }
        }
    }
}

fn answer(
    service: &Service,
    id: &RawValue,
    era: Era,
    outcome: Result<Matches<String>, Error>,
) -> String {
    match outcome {
        Ok(found) => service.result(id, era, &CompleteResult::of(&found)),
        Err(error) => failure(Some(id), &error),
    }
}

/// A `completion/complete` result: at most [`MAX_VALUES`] of the values
/// found, with how many there were.
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

impl<'a, T> CompleteResult<'a, T> {
    fn of(found: &'a Matches<T>) -> Self {
        let values = &found.values[..found.values.len().min(MAX_VALUES)];
        let completion = CompletionValues {
            values,
            total: found.total,
            has_more: found.total > values.len(),
        };
        Self { completion }
    }
}
