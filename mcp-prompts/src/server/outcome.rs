//! What the server answers a message with, typed until the transport's
//! edge: a request's [`Outcome`] (its id, its era, its typed result or
//! error), or a [`Response`] that says whether there is one now, later or
//! none. Telemetry reads how it ended from the typed values; the writer
//! (`writer.rs`) serializes it once, when the transport writes it.

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::Service;
use super::get::GetOutcome;
use super::now_or_later::{Later, NowOrLater};
use crate::context::Kept;
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::{Answer, Page};
use crate::protocol::era::Era;
use crate::protocol::jsonrpc::failure;
use crate::protocol::language::Language;
use crate::telemetry::{Delivered, Ended, Observation};

/// How an answer is held within the server's budget for answers not yet
/// read by their clients (`Server::max_unsent_bytes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    /// Held once written, if it is large (a prompt's messages, a listing).
    IfLarge,
    /// Always held, and sized before it is written where its size is
    /// bounded (a skill's files, the skills' listings).
    Always,
}

/// A typed result, as the writer and telemetry see it: any [`Answer`].
pub(crate) trait Typed: Send {
    /// How the request ended, for telemetry: a result, or one that
    /// reports an error (a tool's `isError`).
    fn ended(&self) -> Ended<'_>;

    /// The language it is in, where the request asked for one.
    fn content_language(&self) -> Option<&Language>;

    /// The result as `era` writes it, held as `held` says.
    fn write(
        &self,
        service: &Service,
        id: &RawValue,
        era: Era,
        held: Held,
        kept: Option<&Kept>,
    ) -> Result<String, Error>;
}

impl<A: Answer + Send> Typed for A {
    fn ended(&self) -> Ended<'_> {
        if self.reports_error() {
            Ended::ToolError
        } else {
            Ended::Ok
        }
    }

    fn content_language(&self) -> Option<&Language> {
        Answer::content_language(self)
    }

    fn write(
        &self,
        service: &Service,
        id: &RawValue,
        era: Era,
        held: Held,
        kept: Option<&Kept>,
    ) -> Result<String, Error> {
        service.write_answer(id, era, self, held, kept)
    }
}

/// One request's outcome: its id, its typed result (with the era it was
/// served in and how it is held) or its error, the revision its telemetry
/// names, and its telemetry, ended when it is written.
pub(crate) struct Outcome<'a> {
    id: Cow<'a, RawValue>,
    /// Its error boxed: most outcomes are results, and an outcome moves
    /// a few times on its way to the edge.
    result: Result<Answered<'a>, Box<Error>>,
    version: Option<ProtocolVersion>,
    watch: Observation,
}

/// A typed result, in the era it was served in, held as it says.
struct Answered<'a> {
    era: Era,
    typed: TypedResult<'a>,
    held: Held,
}

/// A typed result as an outcome holds it: a prompt's and a listing's
/// page, which most requests give, in place; any other boxed. (Boxing
/// every result cost each `prompts/get` an allocation, about 0.7% of its
/// instructions, and each `prompts/list` 2%.)
pub(crate) enum TypedResult<'a> {
    Prompt(GetOutcome),
    Page(Page),
    Boxed(Box<dyn Typed + 'a>),
}

impl<'a> TypedResult<'a> {
    /// Any other result, boxed.
    pub(crate) fn boxed<A: Answer + Send + 'a>(answer: A) -> Self {
        Self::Boxed(Box::new(answer))
    }

    #[inline]
    fn typed(&self) -> &(dyn Typed + 'a) {
        match self {
            Self::Prompt(outcome) => outcome,
            Self::Page(page) => page,
            Self::Boxed(typed) => &**typed,
        }
    }

    /// The language it is in, where the request asked for one: asked of
    /// the results held in place without a virtual call.
    #[inline]
    fn content_language(&self) -> Option<&Language> {
        match self {
            Self::Prompt(outcome) => Answer::content_language(outcome),
            Self::Page(page) => Answer::content_language(page),
            Self::Boxed(typed) => typed.content_language(),
        }
    }
}

impl<'a> Outcome<'a> {
    /// Request `id`'s typed `result` in `era`, held as `held` says.
    #[inline]
    pub(crate) fn answered(
        id: Cow<'a, RawValue>,
        era: Era,
        result: Result<TypedResult<'a>, Error>,
        held: Held,
    ) -> Self {
        let result = match result {
            Ok(typed) => Ok(Answered { era, typed, held }),
            Err(error) => Err(Box::new(error)),
        };
        Self {
            id,
            result,
            version: Some(era.version()),
            watch: Observation::OFF,
        }
    }

    /// Request `id` refused with `error`, in `era` if it was known.
    pub(crate) fn failed(id: Cow<'a, RawValue>, era: Option<Era>, error: Error) -> Self {
        Self {
            id,
            result: Err(Box::new(error)),
            version: era.map(Era::version),
            watch: Observation::OFF,
        }
    }

    /// The revision it was served in, if it was known.
    pub(crate) fn version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    /// The same outcome, ended on `watch` (served in `version`) when it
    /// is written.
    pub(crate) fn watched(self, watch: Observation, version: Option<ProtocolVersion>) -> Self {
        Self {
            version,
            watch,
            ..self
        }
    }

    /// Writes it, as its era has it, held as it says (its bytes left in
    /// `kept`), and ends its watch on what was written: an answer the
    /// budget refuses is told as the error it is answered with.
    #[inline]
    pub(crate) fn write(self, service: &Service, kept: Option<&Kept>) -> String {
        let Self {
            id,
            result,
            version,
            watch,
        } = self;
        let Answered { era, typed, held } = match result {
            Ok(answered) => answered,
            Err(error) => return ended(watch, failure(Some(&id), &error), &error, version),
        };
        // The results held in place are written without a virtual call.
        let written = match &typed {
            TypedResult::Prompt(outcome) => service.write_answer(&id, era, outcome, held, kept),
            TypedResult::Page(page) => service.write_answer(&id, era, page, held, kept),
            TypedResult::Boxed(typed) => typed.write(service, &id, era, held, kept),
        };
        match written {
            Ok(text) => {
                if let (Some(kept), Some(language)) = (kept, typed.content_language()) {
                    kept.keep_language(language);
                }
                if watch.is_on() {
                    watch.end(&typed.typed().ended(), version, Delivered::Answer);
                }
                text
            }
            Err(refused) => ended(watch, failure(Some(&id), &refused), &refused, version),
        }
    }
}

/// `text`, the error response carrying `error`, once `watch` is ended on it.
fn ended(
    watch: Observation,
    text: String,
    error: &Error,
    version: Option<ProtocolVersion>,
) -> String {
    if watch.is_on() {
        watch.end(&Ended::failed(error), version, Delivered::Answer);
    }
    text
}

/// What the server answers one message with, before it is written.
pub(crate) enum Response<'a> {
    /// Nothing: the message was a notification or a client's response.
    None,
    /// A request's outcome, ready now.
    Now(Outcome<'a>),
    /// A request's outcome still being produced (an async prompt that
    /// waits); `None` if it ends with nothing to send.
    Later(Later<Option<Outcome<'static>>>),
    /// An error naming no request: the message could not be read as one
    /// (HTTP answers it with status 400).
    Rejected(Box<Error>),
    /// A batch's responses, written by the batch, whose bound on their
    /// bytes needs their sizes as it goes; `None` if it had only
    /// notifications.
    Batch(NowOrLater<Option<String>>),
}

impl<'a> Response<'a> {
    /// Request `id`'s error response.
    pub(crate) fn refused(id: &'a RawValue, era: Option<Era>, error: Error) -> Self {
        Response::Now(Outcome::failed(Cow::Borrowed(id), era, error))
    }

    /// A message that names no request, refused with `error`.
    pub(crate) fn rejected(error: Error) -> Self {
        Response::Rejected(Box::new(error))
    }

    /// The error response to a message that names no request, written.
    pub(crate) fn rejection(error: &Error) -> String {
        failure(None, error)
    }

    /// Written, once ready: for a route that waits for whatever it is
    /// (the testing client), its bytes left in `kept`.
    pub(crate) async fn text(self, service: &Service, kept: Option<&Kept>) -> Option<String> {
        match self {
            Response::None => None,
            Response::Now(outcome) => Some(outcome.write(service, kept)),
            Response::Rejected(error) => Some(Response::rejection(&error)),
            Response::Batch(NowOrLater::Now(text)) => text,
            Response::Batch(NowOrLater::Later(future)) => future.await,
            Response::Later(future) => Some(future.await?.write(service, kept)),
        }
    }
}
