//! `prompts/get`, one path for every route (a session, a stateless
//! request, an rmcp handler): checks the arguments, asks the user for
//! missing ones where the client can show a form, binds them and calls the
//! prompt, and ends with a typed [`GetOutcome`], now or eventually. Each
//! route reads its own request into a [`GetRequest`]; the server's writer
//! serializes the outcome ([`result`] says how), rmcp converts it.
//!
//! Asking differs by era. In a session the client is sent
//! `elicitation/create` and the prompt waits for the answer; a stateless
//! (2026-07-28) run ends with "input required" instead, and runs again
//! when the client retries with the answers.

mod call;
#[cfg(feature = "registry")]
mod chosen;
mod missing;
pub(crate) mod result;

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::methods::unknown_prompt;
use super::now_or_later::NowOrLater;
use super::request_state::{Binding, Opened, StateKey, fingerprint};
use super::{Era, Inner, Service};
use crate::args::param::missing_arguments;
use crate::caller::{Caller, principal};
use crate::catalog::{AnyPrompt, CatalogSnapshot, Choice, Entry};
use crate::context::{Asking, InputRound, Outbound, Progress, Sender};
use crate::elicit::form::read_answer;
use crate::error::Error;
use crate::message::PromptResult;
use crate::protocol::language::Language;
use crate::protocol::{Arguments, ProtocolVersion};
use call::Call;
use missing::{MISSING_ARGUMENTS, MissingForm, fill_missing};
use std::borrow::Cow;

/// One `prompts/get`, as every route reads it.
pub(crate) struct GetRequest<'a> {
    /// Where it runs, which moves whole into its call.
    site: Site<'a>,
    name: &'a str,
    arguments: Arguments<'a>,
    /// 2026-07-28: what a retry brings back from the rounds before.
    retry: Retry,
    /// Whether it came through the `get_prompt` tool, which offers only
    /// the prompts not kept out of the tools (`as_tool = false`).
    via_tool: bool,
    /// The version its `_meta` asks for in place of the one served.
    #[cfg(feature = "registry")]
    choice: Option<Choice>,
    /// The languages it prefers, as it says them.
    preference: Option<Cow<'a, str>>,
}

/// Where a `prompts/get` runs: the request's id (as JSON) and era, its
/// progress reporter, the connection it asks its client through, and who
/// sent it (with where its own messages go while it runs). Read once from
/// the request, and moved whole into the call of the prompt.
pub(super) struct Site<'a> {
    id: &'a RawValue,
    era: Era,
    progress: Option<Arc<Progress>>,
    outbound: &'a Outbound,
    sender: &'a Sender,
}

/// The language a call answers in: the server's default, or one the
/// request preferred (which its result then names).
pub(super) struct Answering<'a> {
    default: &'a Language,
    /// `None`: the request said nothing, and gets the default unnamed.
    chosen: Option<Language>,
}

impl Answering<'_> {
    /// The language the prompt answers in.
    pub(super) fn language(&self) -> &Language {
        self.chosen.as_ref().unwrap_or(self.default)
    }

    /// The language the result names, where the request asked for one.
    pub(super) fn named(&self) -> Option<Language> {
        self.chosen.clone()
    }

    /// Owned, for a call that moves into a future.
    pub(super) fn owned(&self) -> (Language, Option<Language>) {
        (self.default.clone(), self.chosen.clone())
    }
}

impl<'a> GetRequest<'a> {
    /// Request `id`, under `era`, for prompt `name` with `arguments`; its
    /// questions go out through `outbound`, and `sender` says who asks
    /// and where the request's own messages go. No retry, no progress
    /// token, not through the tool, unless said.
    #[inline]
    pub(crate) fn new(
        id: &'a RawValue,
        era: Era,
        (name, arguments): (&'a str, Arguments<'a>),
        outbound: &'a Outbound,
        sender: &'a Sender,
    ) -> Self {
        Self {
            site: Site {
                id,
                era,
                progress: None,
                outbound,
                sender,
            },
            name,
            arguments,
            retry: Retry::default(),
            via_tool: false,
            #[cfg(feature = "registry")]
            choice: None,
            preference: None,
        }
    }

    /// The languages it prefers, if it says.
    #[inline]
    pub(crate) fn preferring(mut self, preference: Option<Cow<'a, str>>) -> Self {
        self.preference = preference;
        self
    }

    /// The version its `_meta` asks for in place of the one served (kept
    /// only where a registry can serve one).
    #[inline]
    #[cfg_attr(
        not(feature = "registry"),
        allow(unused_mut, clippy::needless_pass_by_value)
    )]
    pub(crate) fn choice(mut self, choice: Option<Choice>) -> Self {
        #[cfg(feature = "registry")]
        {
            self.choice = choice;
        }
        #[cfg(not(feature = "registry"))]
        let _ = choice;
        self
    }

    /// What a 2026-07-28 retry brings back.
    #[inline]
    pub(crate) fn retry(mut self, retry: Retry) -> Self {
        self.retry = retry;
        self
    }

    /// The progress token the request carries, as a reporter.
    #[inline]
    pub(crate) fn progress(mut self, progress: Option<Arc<Progress>>) -> Self {
        self.site.progress = progress;
        self
    }

    /// Whether it came through the `get_prompt` tool.
    #[inline]
    pub(crate) fn via_tool(mut self, via_tool: bool) -> Self {
        self.via_tool = via_tool;
        self
    }
}

/// What a stateless retry carries: the client's answers to the questions
/// of the last round, and the state that round handed it.
#[derive(Default)]
pub(crate) struct Retry {
    input_responses: Option<HashMap<String, Value>>,
    request_state: Option<String>,
}

impl Retry {
    /// The answers to the last round's questions (`inputResponses`), and
    /// the state it handed the client (`requestState`).
    pub(crate) fn new(
        input_responses: Option<HashMap<String, Value>>,
        request_state: Option<String>,
    ) -> Self {
        Self {
            input_responses,
            request_state,
        }
    }
}

/// How a `prompts/get` ended, before any route writes it.
pub(crate) enum GetOutcome {
    /// The prompt's messages, checked against the request's revision; the
    /// prompt gives the description a result without one falls back to.
    Prompt {
        result: PromptResult,
        prompt: AnyPrompt,
        /// The language it is in, where the request asked for one.
        language: Option<Language>,
    },
    /// 2026-07-28: the run asked questions; the client answers them and
    /// retries with the state.
    InputRequired(InputRequired),
}

/// The questions of a stateless round, keyed, each an
/// `elicitation/create` request (`method` and `params`), and the signed
/// state that carries every answer so far.
pub(crate) struct InputRequired {
    requests: Map<String, Value>,
    state: String,
    /// The language its questions are in, where the request asked for one.
    language: Option<Language>,
}

impl InputRequired {
    /// The questions by key (`inputRequests`).
    pub(crate) fn requests(&self) -> &Map<String, Value> {
        &self.requests
    }

    /// The state to hand the client (`requestState`).
    pub(crate) fn state(&self) -> &str {
        &self.state
    }

    /// The language its questions are in, where the request asked for one.
    pub(crate) fn language(&self) -> Option<&Language> {
        self.language.as_ref()
    }
}

/// Whether the request's client can be shown a form: in a session, one
/// whose client declared form elicitation, in a revision that has forms;
/// statelessly, one whose request says so. If not, why not.
fn can_show_form(era: Era, outbound: &Outbound) -> Result<(), &'static str> {
    match era {
        Era::Handshake(version) if version < ProtocolVersion::V2025_06_18 => {
            Err("the session's revision has no elicitation forms")
        }
        Era::Handshake(_) if !outbound.can_elicit() => {
            Err("the client declared no form elicitation")
        }
        Era::Handshake(_) => Ok(()),
        Era::Stateless(meta) if meta.can_elicit() => Ok(()),
        Era::Stateless(_) => Err("the request's client capabilities have no form elicitation"),
    }
}

/// The set a `prompts/get` finds its prompt in: the catalog's, or the one
/// of the version it chose (`chosen.rs`).
enum Served {
    Catalog(arc_swap::Guard<Arc<CatalogSnapshot>>),
    #[cfg(feature = "registry")]
    Chosen(Arc<CatalogSnapshot>),
}

impl std::ops::Deref for Served {
    type Target = CatalogSnapshot;

    fn deref(&self) -> &CatalogSnapshot {
        match self {
            Self::Catalog(guard) => guard,
            #[cfg(feature = "registry")]
            Self::Chosen(set) => set,
        }
    }
}

impl<'a> GetRequest<'a> {
    /// Serves `prompts/get` for any route. A sync prompt whose arguments
    /// are all there is answered now; anything that waits is one future.
    /// A version the request chooses is served from its own set, once
    /// found.
    pub(crate) fn serve(self, service: &'a Service) -> NowOrLater<Result<GetOutcome, Error>> {
        #[cfg(feature = "registry")]
        if let (Some(_), Some(variants)) = (&self.choice, service.variants()) {
            return self.serve_chosen(variants, service);
        }
        self.serve_from(service, Served::Catalog(service.snapshot()))
    }

    /// Serves the request from `served`.
    fn serve_from(
        self,
        service: &'a Service,
        served: Served,
    ) -> NowOrLater<Result<GetOutcome, Error>> {
        let GetRequest {
            site,
            name,
            mut arguments,
            retry,
            via_tool,
            preference,
            ..
        } = self;
        let (era, outbound, sender) = (site.era, site.outbound, site.sender);
        let inner = &service.0;
        let found = served.get(name, sender.access());
        let Some(entry) = found.filter(|e| !via_tool || e.as_tool()) else {
            return NowOrLater::Now(Err(unknown_prompt(name)));
        };
        let (prompt, answering) = in_language(entry, &served, preference.as_deref(), service);
        let can_ask = can_show_form(era, outbound);
        // A stateless request: the answers of the rounds before, bound to
        // the client's arguments as sent, before any answer fills in
        // missing ones.
        let caller = sender.caller().map(|c| &**c);
        let mut round = match open_round(inner, era, prompt.name(), &arguments, retry, caller) {
            Ok(round) => round,
            Err(error) => return NowOrLater::Now(Err(error)),
        };
        let max_result_bytes = inner.limits.result_bytes;
        // The language a stateless round's questions are in, if asked for.
        let named = answering.named();
        let missing: Vec<&str> = entry
            .required()
            .iter()
            .map(|name| &**name)
            .filter(|name| arguments.get(name).is_none())
            .collect();
        // The words the form asking for them is in: the prompt's language's.
        let words =
            (!missing.is_empty()).then(|| Arc::clone(served.words().of(answering.language())));
        let call = |prompt, asking| Call {
            site,
            prompt,
            asking,
            max_result_bytes,
            answering,
        };
        if !missing.is_empty() {
            if !(can_ask.is_ok() && inner.ask_for_missing) {
                let error = missing_arguments(prompt.name(), &missing);
                return NowOrLater::Now(Err(error));
            }
            match &round {
                Some(round) => match round.answers.get(MISSING_ARGUMENTS) {
                    Some(answer) => {
                        let filled = read_answer(answer).and_then(|answer| {
                            fill_missing(arguments, answer, prompt.name(), &missing)
                        });
                        match filled {
                            Ok(filled) => arguments = filled,
                            Err(error) => return NowOrLater::Now(Err(error)),
                        }
                    }
                    None => {
                        let words = words.as_deref().unwrap_or(served.words().default_words());
                        let form = MissingForm::new(&prompt, &missing, era.version(), words);
                        let questions = vec![(MISSING_ARGUMENTS.to_owned(), form.into())];
                        let asked = round.input_required(inner, (&prompt, named), questions);
                        return NowOrLater::Now(asked);
                    }
                },
                None => {
                    let words = words.as_deref().unwrap_or(served.words().default_words());
                    let form = MissingForm::new(&prompt, &missing, era.version(), words);
                    let call = call(prompt, Asking::Client);
                    return NowOrLater::Later(call.ask_then_run(arguments, &missing, form));
                }
            }
        }
        drop(served);
        let asking = match (&mut round, can_ask) {
            // The round's answers move to the run; the questions it asks
            // are sealed with them, from there.
            (Some(round), Ok(())) => {
                let answers = std::mem::take(&mut round.answers);
                Asking::Rounds(Arc::new(InputRound::new(answers)))
            }
            (None, Ok(())) => Asking::Client,
            (_, Err(why)) => Asking::Unable(why),
        };
        let call = call(prompt, asking);
        match call.run(&arguments) {
            NowOrLater::Now(result) => {
                if let Asking::Rounds(input) = &call.asking {
                    input.close();
                }
                NowOrLater::Now(call.outcome(result))
            }
            NowOrLater::Later(future) => match (round, &call.asking) {
                (Some(round), Asking::Rounds(input)) => {
                    let (input, service) = (Arc::clone(input), service.clone());
                    NowOrLater::Later(call.finish_or_ask(future, (round, input), service))
                }
                _ => NowOrLater::Later(call.finish_later(future, service.clone())),
            },
        }
    }
}

/// The prompt of `entry` (in `served`) in the language `preference` picks
/// for it, and how the call answers in it.
fn in_language<'a>(
    entry: &Entry,
    served: &CatalogSnapshot,
    preference: Option<&str>,
    service: &'a Service,
) -> (AnyPrompt, Answering<'a>) {
    let default = service.default_language();
    // A malformed preference is none.
    let wanted = preference.and_then(|text| served.wanted(text, default));
    let Some(wanted) = wanted else {
        let answering = Answering {
            default,
            chosen: None,
        };
        return (entry.prompt().clone(), answering);
    };
    let (prompt, language) = entry.in_language(&wanted, served.languages());
    let chosen = Some(language.unwrap_or(default).clone());
    (prompt.clone(), Answering { default, chosen })
}

/// A stateless run's footing: the arguments' fingerprint and the answers
/// every round so far has given.
pub(super) struct Round {
    fingerprint: String,
    /// Who was asked (their principal): only they may answer.
    principal: String,
    pub(super) answers: HashMap<String, Value>,
}

/// Opens the request state a retry brings (checking it is this prompt's,
/// for these arguments, and unexpired) and takes the client's answers to
/// the questions it asked.
/// A session's request has no rounds: `None`.
fn open_round(
    inner: &Inner,
    era: Era,
    prompt: &str,
    arguments: &Arguments<'_>,
    retry: Retry,
    caller: Option<&Caller>,
) -> Result<Option<Round>, Error> {
    if let Era::Handshake(_) = era {
        return Ok(None);
    }
    let fingerprint = fingerprint(arguments);
    let principal = principal(caller);
    let bound = Binding {
        prompt,
        arguments: &fingerprint,
        principal: &principal,
    };
    let opened = match &retry.request_state {
        Some(state) => state_key(inner)?.open(state, &bound)?,
        None => Opened::default(),
    };
    let answers = opened.answers_with(retry.input_responses.unwrap_or_default());
    Ok(Some(Round {
        fingerprint,
        principal,
        answers,
    }))
}

impl Round {
    /// Ends a stateless run with `questions`: the state handed to the
    /// client carries every answer so far.
    pub(super) fn input_required(
        &self,
        inner: &Inner,
        (prompt, language): (&AnyPrompt, Option<Language>),
        questions: Vec<(String, Value)>,
    ) -> Result<GetOutcome, Error> {
        let key = state_key(inner)?;
        let asked = questions.iter().map(|(key, _)| key.clone()).collect();
        let bound = Binding {
            prompt: prompt.name(),
            arguments: &self.fingerprint,
            principal: &self.principal,
        };
        let state = key.seal(&bound, &self.answers, asked);
        Ok(GetOutcome::InputRequired(InputRequired {
            requests: questions.into_iter().collect(),
            state,
            language,
        }))
    }
}

/// The key request states are signed with; without one (no randomness,
/// no secret) a stateless prompt cannot ask, and says why.
fn state_key(inner: &Inner) -> Result<&StateKey, Error> {
    inner.state_key.as_ref().ok_or_else(|| {
        Error::internal(
            "this server cannot ask for input statelessly: the system gave no randomness \
             for its request-state key (give one with Server::request_state_secret)",
        )
    })
}

/// The outcome of a prompt that has returned: its progress ends, its
/// content is checked against the revision, and an error it hid is
/// redacted.
fn checked_outcome(
    (id, language): (&RawValue, Option<Language>),
    prompt: AnyPrompt,
    (version, max_bytes): (ProtocolVersion, usize),
    progress: Option<&Progress>,
    result: Result<PromptResult, Error>,
) -> Result<GetOutcome, Error> {
    if let Some(progress) = progress {
        progress.stop();
    }
    // A template's render stopped at the limit already; a prompt
    // function's result is measured once it has returned.
    match result.and_then(|r| r.check(version, max_bytes).map(|()| r)) {
        Ok(result) => Ok(GetOutcome::Prompt {
            result,
            prompt,
            language,
        }),
        Err(error) => Err(error.redacted(&format!("prompt `{}`", prompt.name()), id.get())),
    }
}
