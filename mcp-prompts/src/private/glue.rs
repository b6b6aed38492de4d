//! The glue every `#[prompt]` function's definition calls: one generic
//! function per number of parameters, type-checked once here rather than
//! once per prompt in the user's crate. A prompt's expansion is then a
//! single call, `call2::<String, Plain, u32, Plain, _>(input, greet,
//! ready::<String>)`, and prompts of the same signature share one instance.
//!
//! The return type is checked where the expansion names `ready` or
//! `pending` (`invoke.rs`), so that a prompt returning what no client can
//! be sent is reported with a note pointing at plain code, not at the
//! macro below.
//!
use crate::args::{PromptArgs, PromptParam};
use crate::descriptor::Input;
use crate::error::Error;
use crate::invoke::Invocation;

/// A parameter bound as one argument, through [`PromptParam`].
pub enum Plain {}

/// A `#[arg(flatten)]` parameter, bound as a struct's arguments through
/// [`PromptArgs`].
pub enum Flat {}

/// What the glue needs of a parameter: its value, from the definition's
/// arguments starting at `*at`, moving `*at` past the ones it took.
pub trait Bind<M>: Sized {
    /// Binds the parameter for one call.
    fn bind_at(input: &Input<'_>, at: &mut usize) -> Result<Self, Error>;
}

impl<T: PromptParam> Bind<Plain> for T {
    fn bind_at(input: &Input<'_>, at: &mut usize) -> Result<Self, Error> {
        let arg = &input.prompt().params[*at];
        *at += 1;
        T::bind(input, arg)
    }
}

impl<T: PromptArgs> Bind<Flat> for T {
    fn bind_at(input: &Input<'_>, at: &mut usize) -> Result<Self, Error> {
        *at += T::ARGS.len();
        T::bind_args(input)
    }
}

/// `call{N}` for each list of parameters: their type parameters, markers
/// (how each is bound) and values. Twelve at most: the macro refuses a
/// thirteenth parameter (`mcp-prompts-macros/src/valid.rs`).
macro_rules! glue {
    ($($call:ident ($($param:ident $how:ident $value:ident),*);)*) => {$(
        /// Binds each parameter, calls the prompt and hands what it returned
        /// (a value, or a future) to `finish`.
        #[allow(clippy::many_single_char_names, clippy::type_complexity)]
        #[allow(unused_mut, unused_variables)] // with no parameters
        pub fn $call<$($param: Bind<$how>, $how,)* R>(
            input: &Input<'_>,
            prompt: fn($($param),*) -> R,
            finish: fn(R) -> Invocation,
        ) -> Result<Invocation, Error> {
            let mut at = 0;
            $(let $value = $param::bind_at(input, &mut at)?;)*
            Ok(finish(prompt($($value),*)))
        }
    )*};
}

glue! {
    call0 ();
    call1 (A MA a);
    call2 (A MA a, B MB b);
    call3 (A MA a, B MB b, C MC c);
    call4 (A MA a, B MB b, C MC c, D MD d);
    call5 (A MA a, B MB b, C MC c, D MD d, E ME e);
    call6 (A MA a, B MB b, C MC c, D MD d, E ME e, F MF f);
    call7 (A MA a, B MB b, C MC c, D MD d, E ME e, F MF f, G MG g);
    call8 (A MA a, B MB b, C MC c, D MD d, E ME e, F MF f, G MG g, H MH h);
    call9 (A MA a, B MB b, C MC c, D MD d, E ME e, F MF f, G MG g, H MH h, I MI i);
    call10 (A MA a, B MB b, C MC c, D MD d, E ME e, F MF f, G MG g, H MH h, I MI i, J MJ j);
    call11 (A MA a, B MB b, C MC c, D MD d, E ME e, F MF f, G MG g, H MH h, I MI i, J MJ j, K MK k);
    call12 (A MA a, B MB b, C MC c, D MD d, E ME e, F MF f, G MG g, H MH h, I MI i, J MJ j, K MK k, L ML l);
}
