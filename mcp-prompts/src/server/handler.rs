//! A row's other half: the [`Handler`] that serves a request type of the
//! method table, and the narrow [`Handling`] context it borrows what it
//! needs through. The dispatch reads a request's params once, here, calls
//! its handler and turns what it gives into the request's typed
//! [`Outcome`], now or once it is ready. Each handler lives beside its
//! domain: prompts (`prompts.rs`), completion, tools, skills and their
//! resources (`skills.rs`), the session's own methods (`methods.rs`).

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use serde_json::value::RawValue;

use super::now_or_later::{Later, NowOrLater, poll_once};
use super::outcome::{Held, Outcome, Response, TypedResult};
use super::session::SessionState;
use super::{Service, Session};
use crate::caller::Access;
use crate::context::{InFlight, Sender};
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::Answer;
use crate::protocol::era::Era;
use crate::protocol::method::Request;

/// What serves a request type: its typed result, how that is held within
/// the unsent budget, and the function of its params that makes it.
/// It never writes JSON, never names a transport, never decides the era.
pub(crate) trait Handler: Request {
    /// Its result, before any era writes it.
    type Result: Answer + Send + 'static;

    /// How its answer is held within the budget for answers not yet read.
    const HELD: Held = Held::IfLarge;

    /// Its result as an outcome holds it: boxed, unless it is one an
    /// outcome holds in place.
    #[inline]
    fn typed(result: Self::Result) -> TypedResult<'static> {
        TypedResult::boxed(result)
    }

    /// Serves one request of this type, from its params.
    fn handle<'a>(cx: &Handling<'a>, params: Self::Params<'a>) -> Handled<Self::Result>;
}

/// What a handler gives: its result now, or a future of it.
pub(crate) enum Handled<A> {
    Now(Result<A, Error>),
    Later(Later<Result<A, Error>>),
    /// A future that may end with nothing to send (a listen whose client
    /// went away first).
    LaterIfAny(Later<Option<Result<A, Error>>>),
}

impl<A> From<NowOrLater<Result<A, Error>>> for Handled<A> {
    #[inline]
    fn from(eventually: NowOrLater<Result<A, Error>>) -> Self {
        match eventually {
            NowOrLater::Now(result) => Self::Now(result),
            NowOrLater::Later(future) => Self::Later(future),
        }
    }
}

/// One request being handled: who asks, in which era, on which session.
/// A handler borrows what it needs through it.
#[derive(Clone, Copy)]
pub(crate) struct Handling<'a> {
    session: &'a Session,
    id: &'a RawValue,
    era: Era,
    sender: &'a Sender,
}

impl<'a> Handling<'a> {
    #[inline]
    pub(super) fn new(
        session: &'a Session,
        id: &'a RawValue,
        era: Era,
        sender: &'a Sender,
    ) -> Self {
        Self {
            session,
            id,
            era,
            sender,
        }
    }

    /// The same request, served in `era` from now on (an `initialize`,
    /// once it has negotiated its revision).
    pub(super) fn in_era(self, era: Era) -> Self {
        Self { era, ..self }
    }

    /// The request's id, as JSON.
    pub(crate) fn id(&self) -> &'a RawValue {
        self.id
    }

    /// The era it is served in.
    pub(crate) fn era(&self) -> Era {
        self.era
    }

    /// The revision it is served in.
    pub(crate) fn version(&self) -> ProtocolVersion {
        self.era.version()
    }

    /// The server's shared state: its catalog, skills and settings.
    pub(crate) fn service(&self) -> &'a Service {
        &self.session.service
    }

    /// The connection's own state: its revision, its channel to the
    /// client, its listens.
    pub(crate) fn connection(&self) -> &'a SessionState {
        &self.session.state
    }

    /// Who sent the request, and where its own messages go.
    pub(crate) fn sender(&self) -> &'a Sender {
        self.sender
    }

    /// Who asks, for what they may see.
    pub(crate) fn access(&self) -> &'a Access {
        self.sender.access()
    }

    /// Reads the request's params once and serves it with `H`: its
    /// outcome, now or once ready.
    #[inline]
    pub(super) fn serve<H: Handler>(self, params: Option<&'a RawValue>) -> Response<'a> {
        match H::params(params) {
            Ok(params) => match H::handle(&self, params) {
                Handled::Now(result) => self.now_typed(result.map(H::typed), H::HELD),
                Handled::Later(future) => {
                    self.later(future, |result| Some(result.map(H::typed)), H::HELD)
                }
                Handled::LaterIfAny(future) => self.later(
                    future,
                    |result| result.map(|result| result.map(H::typed)),
                    H::HELD,
                ),
            },
            Err(error) => self.refuse(error),
        }
    }

    /// The outcome `result` is, ready now.
    pub(super) fn now<A: Answer + Send + 'a>(
        self,
        result: Result<A, Error>,
        held: Held,
    ) -> Response<'a> {
        self.now_typed(result.map(TypedResult::boxed), held)
    }

    /// The outcome a typed `result` is, ready now.
    #[inline]
    fn now_typed(self, result: Result<TypedResult<'a>, Error>, held: Held) -> Response<'a> {
        let id = Cow::Borrowed(self.id);
        Response::Now(Outcome::answered(id, self.era, result, held))
    }

    /// The request refused with `error`.
    pub(super) fn refuse(self, error: Error) -> Response<'a> {
        Response::refused(self.id, Some(self.era), error)
    }

    /// A result still being produced is polled once, in case it is ready
    /// already: work that never actually waits is answered here, with no
    /// task, no hand-off to another thread and nothing owned for later.
    /// Work that waits can be cancelled while it does; it is in flight
    /// from before this poll, so that a prompt's context can watch for
    /// cancellation from the start. (A prompt that takes no context was
    /// polled once already, before it was in flight, and yields here: see
    /// `get/call.rs`.) `typed` makes its result the answer's, or none.
    fn later<T, G>(self, mut future: Later<T>, typed: G, held: Held) -> Response<'a>
    where
        T: Send + 'static,
        G: FnOnce(T) -> Option<Result<TypedResult<'static>, Error>> + Send + 'static,
    {
        let in_flight = self.session.state.outbound.track(self.id.get());
        if let Some(value) = poll_once(&mut future) {
            return match typed(value) {
                Some(result) => self.now_typed(result, held),
                None => Response::None,
            };
        }
        let (id, era) = (self.id.to_owned(), self.era);
        let answered: Later<Option<Outcome<'static>>> = Box::pin(async move {
            let result = typed(future.await)?;
            Some(Outcome::answered(Cow::Owned(id), era, result, held))
        });
        Response::Later(cancellable(answered, in_flight))
    }
}

/// A request still being worked on, which ends with no response if the
/// client cancels it: its work is dropped where it stands. It stays in
/// flight for as long as the future lives, polled or not.
fn cancellable<T: Send + 'static>(
    mut future: Pin<Box<dyn Future<Output = Option<T>> + Send>>,
    in_flight: InFlight,
) -> Later<Option<T>> {
    Box::pin(async move {
        let mut cancelled = std::pin::pin!(in_flight.cancel().fired());
        std::future::poll_fn(|cx| {
            if cancelled.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
            future.as_mut().poll(cx)
        })
        .await
    })
}
