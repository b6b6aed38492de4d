//! What a completer may return, sync or async: any collection or iterator
//! of strings, a `&'static` list (filtered through a cached index), or a
//! `Result` of one. Marker type parameters keep the impls apart, so each
//! return type has exactly one way in.

use std::future::Future;
use std::marker::PhantomData;

use crate::descriptor::{CompletionCall, CompletionInput, Source};
use crate::error::Error;

/// A collection of completion values: any `IntoIterator` of strings, or a
/// `&'static [&'static str]` list.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list of completion values",
    note = "return any collection or iterator of strings (`Vec<String>`, `[&str; N]`, an iterator), a `&'static [&'static str]`, or a `Result` of one"
)]
pub trait IntoCompletions<M> {
    /// The values.
    fn into_completions(self) -> Result<Source, Error>;
}

#[doc(hidden)]
pub enum Listed {}
#[doc(hidden)]
pub enum Iterated {}
#[doc(hidden)]
pub struct Fallible<M>(PhantomData<M>);

impl IntoCompletions<Listed> for &'static [&'static str] {
    fn into_completions(self) -> Result<Source, Error> {
        Ok(Source::Static(self))
    }
}

impl<const N: usize> IntoCompletions<Listed> for &'static [&'static str; N] {
    fn into_completions(self) -> Result<Source, Error> {
        Ok(Source::Static(self))
    }
}

impl<I> IntoCompletions<Iterated> for I
where
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn into_completions(self) -> Result<Source, Error> {
        Ok(Source::Values(self.into_iter().map(Into::into).collect()))
    }
}

impl<T, E, M> IntoCompletions<Fallible<M>> for Result<T, E>
where
    T: IntoCompletions<M>,
    E: Into<Error>,
{
    fn into_completions(self) -> Result<Source, Error> {
        self.map_err(Into::into)?.into_completions()
    }
}

/// What a completer function returns: completion values, or a future of them.
pub trait CompleterOutput<M> {
    /// Values now, or a future of them.
    fn into_call(self) -> CompletionCall;
}

#[doc(hidden)]
pub struct Now<M>(PhantomData<M>);
#[doc(hidden)]
pub struct Awaited<M>(PhantomData<M>);

impl<T: IntoCompletions<M>, M> CompleterOutput<Now<M>> for T {
    fn into_call(self) -> CompletionCall {
        CompletionCall::Ready(self.into_completions())
    }
}

impl<F, M> CompleterOutput<Awaited<M>> for F
where
    F: Future + Send + 'static,
    F::Output: IntoCompletions<M>,
{
    fn into_call(self) -> CompletionCall {
        CompletionCall::Pending(Box::pin(async move { self.await.into_completions() }))
    }
}

/// What `#[arg(complete = ...)]` accepts: a function of a
/// [`CompletionInput`] (`fn(&CompletionInput)`, or `async fn(CompletionInput)`
/// whose future owns it), or a `&'static` list of values.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot complete an argument",
    label = "not a completer",
    note = "use a function `fn(&CompletionInput) -> impl IntoIterator<Item: Into<String>>` (or `async fn(CompletionInput)`; either may return a `Result`), a `&'static [&'static str]`, or a list: `complete = [\"a\", \"b\"]`"
)]
pub trait CompleteWith<M> {
    /// Runs the completer.
    fn complete_with(self, input: CompletionInput) -> CompletionCall;
}

#[doc(hidden)]
pub struct Called<M>(PhantomData<M>);
#[doc(hidden)]
pub struct CalledByRef<M>(PhantomData<M>);

/// An async completer takes its input by value, so that its future owns it.
impl<F, R, M> CompleteWith<Called<M>> for F
where
    F: FnOnce(CompletionInput) -> R,
    R: CompleterOutput<M>,
{
    fn complete_with(self, input: CompletionInput) -> CompletionCall {
        self(input).into_call()
    }
}

/// A sync completer usually only reads its input.
impl<F, R, M> CompleteWith<CalledByRef<M>> for F
where
    F: FnOnce(&CompletionInput) -> R,
    R: CompleterOutput<M>,
{
    fn complete_with(self, input: CompletionInput) -> CompletionCall {
        self(&input).into_call()
    }
}

impl CompleteWith<Listed> for &'static [&'static str] {
    fn complete_with(self, _: CompletionInput) -> CompletionCall {
        CompletionCall::Ready(Ok(Source::Static(self)))
    }
}

impl<const N: usize> CompleteWith<Listed> for &'static [&'static str; N] {
    fn complete_with(self, _: CompletionInput) -> CompletionCall {
        CompletionCall::Ready(Ok(Source::Static(self)))
    }
}
