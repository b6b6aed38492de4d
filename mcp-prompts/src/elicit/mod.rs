//! Forms a prompt asks its user to fill in ([`RequestContext::elicit`],
//! [`RequestContext::choose`]). They are built from argument definitions
//! and read back as arguments, so they sit above `args`; the context below
//! keeps only the untyped round trip.

pub(crate) mod form;

use crate::args::param::{invalid_value, missing_arguments};
use crate::args::{PromptArg, PromptArgs, PromptParam};
use crate::catalog::ArgInfo;
use crate::context::RequestContext;
use crate::descriptor::{ArgDef, Input, PromptDef};
use crate::error::Error;
use form::{Answer, create_params, form_schema, read_answer};

/// What the user did with a form a prompt asked them to fill in
/// ([`RequestContext::elicit`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicited<T> {
    /// The user submitted the form; its values, parsed and checked as
    /// prompt arguments are.
    Accepted(T),
    /// The user said no.
    Declined,
    /// The user dismissed the form without choosing.
    Cancelled,
    /// Nobody was asked: the client cannot show forms (it declared no
    /// `elicitation` capability), or as many of the connection's requests
    /// as the server allows already wait for answers
    /// ([`Server::max_waiting_questions`](crate::Server::max_waiting_questions)).
    Unsupported,
}

impl RequestContext {
    /// Asks the user to fill in the form `T`, a
    /// [`#[derive(PromptArgs)]`](derive@crate::PromptArgs) struct: each
    /// field becomes a form field (its type decides the kind: text, a
    /// number within the type's range, a yes/no, a choice of a choice
    /// enum's values; its doc comment the description; its default the
    /// initial value), and the answer is parsed and checked as prompt
    /// arguments are. `key` names the question, unique within the prompt.
    ///
    /// Only an `async` prompt can ask. On a stateless 2026-07-28 request,
    /// the first run of the prompt stops here, the client is told what to
    /// ask, and the prompt runs again from the start with the answer;
    /// anything it does before asking must be safe to repeat. A client
    /// that cannot show forms gets no question: the answer is
    /// [`Elicited::Unsupported`]. A question left unanswered past
    /// [`Server::question_timeout`](crate::Server::question_timeout) is
    /// withdrawn and reads as [`Elicited::Declined`].
    ///
    /// ```
    /// use mcp_prompts::{Elicited, PromptArg, PromptArgs, RequestContext, prompt};
    ///
    /// #[derive(PromptArg)]
    /// #[prompt_arg(rename_all = "lowercase")]
    /// enum Environment { Staging, Production }
    ///
    /// #[derive(PromptArgs)]
    /// struct Target {
    ///     /// Target environment
    ///     environment: Environment,
    /// }
    ///
    /// /// Draft deployment notes
    /// #[prompt]
    /// async fn deploy(ctx: RequestContext, service: String) -> Result<String, mcp_prompts::Error> {
    ///     let question = format!("Where is {service} being deployed?");
    ///     Ok(match ctx.elicit::<Target>("target", &question).await? {
    ///         Elicited::Accepted(target) => format!("Notes for {service} on {}", target.environment),
    ///         _ => format!("Generic notes for {service}"),
    ///     })
    /// }
    /// ```
    pub async fn elicit<T: PromptArgs>(
        &self,
        key: &str,
        message: &str,
    ) -> Result<Elicited<T>, Error> {
        let params = create_params(
            message,
            &form_schema(T::ARGS.iter().map(ArgInfo::from), self.protocol_version()),
        );
        let Some(answer) = self.ask(key, params).await? else {
            return Ok(Elicited::Unsupported);
        };
        Ok(match read_answer(&answer)? {
            Answer::Declined => Elicited::Declined,
            Answer::Cancelled => Elicited::Cancelled,
            Answer::Accepted(arguments) => {
                let def = PromptDef::form(T::ARGS);
                let input = Input::new(&def, &arguments, self.parts());
                Elicited::Accepted(T::bind_args(&input)?)
            }
        })
    }

    /// Asks the user to pick one value of `T`, a
    /// [`#[derive(PromptArg)]`](derive@crate::PromptArg) choice enum (or
    /// any argument type): a form of one field, `choice`. Otherwise as
    /// [`elicit`](Self::elicit).
    ///
    /// ```
    /// use mcp_prompts::{Elicited, PromptArg, RequestContext, prompt};
    ///
    /// #[derive(PromptArg)]
    /// enum Depth { Quick, Thorough }
    ///
    /// /// Review the change
    /// #[prompt]
    /// async fn review(ctx: RequestContext) -> Result<String, mcp_prompts::Error> {
    ///     Ok(match ctx.choose::<Depth>("depth", "How deep should the review go?").await? {
    ///         Elicited::Accepted(depth) => format!("Review the change, {depth}."),
    ///         _ => "Review the change.".to_owned(),
    ///     })
    /// }
    /// ```
    pub async fn choose<T: PromptArg>(
        &self,
        key: &str,
        message: &str,
    ) -> Result<Elicited<T>, Error> {
        let field = ArgDef {
            name: CHOICE,
            title: "",
            description: "",
            default: None,
            example: "",
            range: None,
            ty: <T as PromptParam>::TYPE,
            complete: None,
        };
        let params = create_params(
            message,
            &form_schema([ArgInfo::from(&field)], self.protocol_version()),
        );
        let Some(answer) = self.ask(key, params).await? else {
            return Ok(Elicited::Unsupported);
        };
        Ok(match read_answer(&answer)? {
            Answer::Declined => Elicited::Declined,
            Answer::Cancelled => Elicited::Cancelled,
            Answer::Accepted(arguments) => match arguments.get(CHOICE) {
                Some(value) => Elicited::Accepted(
                    T::parse_arg(value).map_err(|reason| invalid_value(&field, &reason))?,
                ),
                None => return Err(missing_arguments("form", &[CHOICE])),
            },
        })
    }
}

/// The one field of a [`RequestContext::choose`] form.
const CHOICE: &str = "choice";
