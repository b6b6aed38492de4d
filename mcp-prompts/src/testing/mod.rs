//! An in-process client for testing prompts: requests go through the real
//! dispatch path (JSON-RPC text in, text out, exactly as over stdio), and
//! results come back as plain Rust values to assert on. The typed handles
//! (`greet::args()`) need the `builders` feature: turn it on where tests
//! build, in `[dev-dependencies]`.
//!
//! ```
//! use mcp_prompts::testing::Client;
//! use mcp_prompts::{PromptArg, Role, Server, catalog, prompt};
//!
//! #[derive(PromptArg)]
//! enum Tone { Formal, Casual }
//!
//! /// Compose a greeting
//! #[prompt]
//! fn greet(name: String, #[arg(default = "casual")] tone: Tone) -> String {
//!     format!("Compose a short, {tone} greeting for {name}.")
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let service = Server::new("test", "1.0").catalog(catalog![greet]).build().unwrap();
//! let client = Client::new(&service);
//!
//! // Through the prompt's typed handle: names and types are checked.
//! let got = client.get(greet::args().name("Ann").tone(Tone::Formal)).await.unwrap();
//! assert_eq!(got.texts(), ["Compose a short, formal greeting for Ann."]);
//! assert_eq!(got.messages()[0].role(), Role::User);
//!
//! // By name, with the text a client would send.
//! let err = client.get(("greet", [("name", "Ann"), ("tone", "rude")])).await.unwrap_err();
//! assert_eq!(err.code(), mcp_prompts::Error::INVALID_PARAMS);
//!
//! // The listing, for a snapshot test.
//! assert!(client.catalog_json().await.contains("\"name\": \"greet\""));
//! # });
//! ```

mod answers;
mod contract;
mod matrix;
#[cfg(feature = "insta")]
mod snapshot;

/// What `assert_matrix_snapshot!` expands to, reached through this crate
/// so its users need no `insta` of the same version.
#[cfg(feature = "insta")]
#[doc(hidden)]
pub use insta as __insta;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;

use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

pub use answers::{Answer, Answers, Question};
pub use contract::assert_catalog_compatible;
pub use matrix::MAX_COMBINATIONS;

use crate::caller::{Access, Caller};
use crate::content::Role;
use crate::context::{Backchannel, Sender};
use crate::error::Error;
use crate::protocol::ProtocolVersion;
use crate::protocol::language::ACCEPT_LANGUAGE;
use crate::protocol::to_client::ToClient;
use crate::request::GetPrompt;
use crate::server::{Service, Session};
use crate::telemetry::Network;

/// A client connected in-process to a [`Service`], initialized with the
/// latest protocol revision (or the one given).
pub struct Client {
    session: Session,
    next_id: AtomicU64,
    /// Local, unless the client [acts as a remote caller](Self::as_caller).
    access: Access,
    /// The revision `initialize` negotiated.
    version: ProtocolVersion,
    /// How the user answers questions; none: the client shows no forms.
    answers: Option<Answers>,
    /// Whether requests are 2026-07-28 ones, each standing alone.
    stateless: bool,
    /// The language preference every request carries, if any.
    language: Option<String>,
}

/// How many rounds of questions a stateless request may take.
const MAX_ROUNDS: usize = 16;

/// The `_meta` object of `params` (an object), made if missing.
fn meta_of(params: &mut Value) -> &mut Map<String, Value> {
    if !params["_meta"].is_object() {
        params["_meta"] = json!({});
    }
    params["_meta"]
        .as_object_mut()
        .expect("an object, just made")
}

impl Client {
    /// A client of `service`, after an `initialize` with the latest revision.
    pub fn new(service: &Service) -> Self {
        Self::with_version(service, ProtocolVersion::LATEST)
    }

    /// A client of `service` that negotiated `version`.
    pub fn with_version(service: &Service, version: ProtocolVersion) -> Self {
        let client = Self {
            session: service.session(None),
            next_id: AtomicU64::new(1),
            access: Access::Local,
            version,
            answers: None,
            stateless: false,
            language: None,
        };
        client.initialize(&json!({}));
        client
    }

    /// Sends `initialize` with `capabilities`, in the client's revision.
    fn initialize(&self, capabilities: &Value) {
        let init = json!({
            "protocolVersion": self.version.as_str(),
            "capabilities": capabilities,
            "clientInfo": { "name": "mcp-prompts-testing", "version": env!("CARGO_PKG_VERSION") },
        });
        // `initialize` is always answered inline.
        let text = self.envelope("initialize", &init);
        let session = &self.session;
        if let crate::server::Response::Now(outcome) = session.serve_text(&text, &Sender::LOCAL) {
            let reply = outcome.write(session.service(), None);
            debug_assert!(reply.contains("\"result\""), "{reply}");
        }
    }

    /// From now on the client shows forms, and `answers` fills them in:
    /// a prompt that asks its user (`RequestContext::elicit`, or missing
    /// arguments) runs to its end. In a session the client answers the
    /// server's `elicitation/create`; [`stateless`](Self::stateless), it
    /// retries each "input required" round with the answers.
    ///
    /// ```
    /// use mcp_prompts::testing::{Answers, Client};
    /// use mcp_prompts::{Elicited, Error, PromptArgs, RequestContext, Server, catalog, prompt};
    ///
    /// #[derive(PromptArgs)]
    /// struct Where {
    ///     /// Where to deploy
    ///     environment: String,
    /// }
    ///
    /// /// Deployment notes
    /// #[prompt]
    /// async fn notes(ctx: RequestContext) -> Result<String, Error> {
    ///     Ok(match ctx.elicit::<Where>("where", "Where to?").await? {
    ///         Elicited::Accepted(to) => format!("Notes for {}.", to.environment),
    ///         _ => "Generic notes.".to_owned(),
    ///     })
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let service = Server::new("t", "1").catalog(catalog![notes]).build().unwrap();
    /// let answers = Answers::fields([("environment", "prod".into())]);
    /// for client in [
    ///     Client::new(&service).answering(answers.clone()),
    ///     Client::new(&service).stateless().answering(answers.clone()),
    /// ] {
    ///     assert_eq!(client.get(("notes", [])).await.unwrap().texts(), ["Notes for prod."]);
    /// }
    /// let declined = Client::new(&service).answering(Answers::decline());
    /// assert_eq!(declined.get(("notes", [])).await.unwrap().texts(), ["Generic notes."]);
    /// # });
    /// ```
    #[must_use]
    pub fn answering(mut self, answers: Answers) -> Self {
        // A new session whose `initialize` says the client shows forms.
        self.session = self.session.service().session(None);
        self.answers = Some(answers);
        self.initialize(&json!({ "elicitation": { "form": {} } }));
        self
    }

    /// From now on, requests are 2026-07-28 requests, each standing alone
    /// (`_meta` names the revision and the client's capabilities), as a
    /// stateless client sends them.
    #[must_use]
    pub fn stateless(mut self) -> Self {
        self.stateless = true;
        self
    }

    /// From now on, every request prefers `preference`'s languages (in
    /// `Accept-Language` syntax: `fr`, `fr-CH, en;q=0.5`), sent as
    /// `_meta["io.modelcontextprotocol/acceptLanguage"]`.
    ///
    /// ```
    /// use mcp_prompts::testing::Client;
    /// use mcp_prompts::{DynamicPrompt, Server};
    ///
    /// let hello = |text: &str| DynamicPrompt::builder("hello").template(text);
    /// let prompt = hello("Hello.").translation("fr", hello("Bonjour.").build()?).build()?;
    /// let service = Server::new("t", "1").prompts([prompt]).build()?;
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let french = Client::new(&service).language("fr-CH, en;q=0.5");
    /// assert_eq!(french.get(("hello", [])).await.unwrap().texts(), ["Bonjour."]);
    /// # });
    /// # Ok::<(), mcp_prompts::BuildError>(())
    /// ```
    #[must_use]
    pub fn language(mut self, preference: impl Into<String>) -> Self {
        self.language = Some(preference.into());
        self
    }

    /// From now on, requests come from a remote client that `caller`
    /// proves (`None`: a remote client that proves nobody), as over HTTP
    /// with auth: [`RequestContext::caller`](crate::RequestContext::caller)
    /// sees it, and prompts it may not see are unknown. By default the
    /// client is the local user, who sees every prompt.
    ///
    /// ```
    /// use mcp_prompts::{Caller, RequestContext, Server, catalog, prompt};
    /// use mcp_prompts::testing::Client;
    ///
    /// /// Greets whoever asks
    /// #[prompt(scopes = ["greet"])]
    /// fn hello(ctx: RequestContext) -> String {
    ///     format!("Say hello to {}.", ctx.caller().map_or("you", Caller::subject))
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let service = Server::new("t", "1").catalog(catalog![hello]).build().unwrap();
    /// let ann = Client::new(&service).as_caller(Some(Caller::new("ann").with_scopes(["greet"])));
    /// assert_eq!(ann.get(("hello", [])).await.unwrap().texts(), ["Say hello to ann."]);
    /// let stranger = Client::new(&service).as_caller(None);
    /// assert!(stranger.get(("hello", [])).await.is_err());
    /// # });
    /// ```
    #[must_use]
    pub fn as_caller(mut self, caller: Option<Caller>) -> Self {
        self.access = Access::Remote(caller.map(Arc::new));
        self
    }

    /// Sends any request and returns its `result`, or the error response.
    /// [Stateless](Self::stateless), a result that asks for input is
    /// answered and the request sent again, until it completes.
    pub async fn request(&self, method: &str, params: &Value) -> Result<Value, Error> {
        let mut params = params.clone();
        if let Some(language) = &self.language {
            if !params.is_object() {
                params = json!({});
            }
            meta_of(&mut params).insert(ACCEPT_LANGUAGE.to_owned(), language.as_str().into());
        }
        if !self.stateless {
            return self.request_once(method, &params).await;
        }
        if !params.is_object() {
            params = json!({});
        }
        let capabilities = match self.answers {
            Some(_) => json!({ "elicitation": { "form": {} } }),
            None => json!({}),
        };
        let meta = meta_of(&mut params);
        meta.insert(
            crate::protocol::modern::PROTOCOL_VERSION.to_owned(),
            ProtocolVersion::MODERN.as_str().into(),
        );
        meta.insert(
            crate::protocol::modern::CLIENT_CAPABILITIES.to_owned(),
            capabilities,
        );
        for _ in 0..MAX_ROUNDS {
            let result = self.request_once(method, &params).await?;
            if result["resultType"] != "input_required" {
                return Ok(result);
            }
            let Some(answers) = &self.answers else {
                return Err(Error::internal(
                    "the request asks its user for input: give the client answers (Client::answering)",
                ));
            };
            let responses: Map<String, Value> = result["inputRequests"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(key, request)| {
                    let question = Question::of(&request["params"]);
                    (key.clone(), answers.answer(&question).to_result())
                })
                .collect();
            params["inputResponses"] = Value::Object(responses);
            params["requestState"] = result["requestState"].clone();
        }
        Err(Error::internal(format!(
            "the request still asks for input after {MAX_ROUNDS} rounds"
        )))
    }

    /// Sends one request, answering the questions the server sends while
    /// it runs; its `result`, or the error response.
    async fn request_once(&self, method: &str, params: &Value) -> Result<Value, Error> {
        let text = self.envelope(method, params);
        // What the request sends the client while it runs comes here.
        let (route, mut sent) = mpsc::channel::<ToClient>(16);
        let wire = match self.access {
            Access::Local => Network::PIPE,
            Access::Remote(_) => Network::UNKNOWN,
        };
        let sender = Sender::new(Some(Backchannel::Typed(route)), self.access.clone(), wire);
        let response = self.session.serve_text(&text, &sender);
        let mut replied = std::pin::pin!(response.text(self.session.service(), None));
        let reply = std::future::poll_fn(|cx| {
            while let Poll::Ready(Some(message)) = sent.poll_recv(cx) {
                self.answer_server(message);
            }
            replied.as_mut().poll(cx)
        })
        .await
        .ok_or_else(|| Error::internal("the server sent no response"))?;
        let response: Response =
            serde_json::from_str(&reply).map_err(|err| Error::internal(err.to_string()))?;
        match (response.result, response.error) {
            (Some(result), _) => Ok(result),
            (None, Some(error)) => {
                let mut err = Error::new(error.code, error.message);
                if let Some(data) = error.data {
                    err = err.with_data(data);
                }
                Err(err)
            }
            (None, None) => Err(Error::internal(format!("malformed response: {reply}"))),
        }
    }

    /// Gets a prompt: from its typed handle (`greet::args().name("Ann")`),
    /// a [`GetPrompt`], or a `(name, [(argument, value), ..])` pair.
    pub async fn get(&self, request: impl Into<GetPrompt>) -> Result<GetResult, Error> {
        let request = request.into();
        let params = serde_json::to_value(&request).map_err(|e| Error::internal(e.to_string()))?;
        let result = self.request("prompts/get", &params).await?;
        serde_json::from_value(result).map_err(|err| Error::internal(err.to_string()))
    }

    /// Completes `argument` of `prompt` from the text typed so far.
    pub async fn complete(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Completion, Error> {
        self.complete_with(prompt, argument, value, &[]).await
    }

    /// Completes `argument` of `prompt`, with the arguments the user has
    /// already filled in (`context.arguments`).
    pub async fn complete_with(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
        filled: &[(&str, &str)],
    ) -> Result<Completion, Error> {
        let mut params = json!({
            "ref": { "type": "ref/prompt", "name": prompt },
            "argument": { "name": argument, "value": value },
        });
        if !filled.is_empty() {
            let arguments: serde_json::Map<String, Value> = filled
                .iter()
                .map(|(k, v)| ((*k).to_owned(), Value::from(*v)))
                .collect();
            params["context"] = json!({ "arguments": arguments });
        }
        let result = self.request("completion/complete", &params).await?;
        serde_json::from_value(result["completion"].clone())
            .map_err(|err| Error::internal(err.to_string()))
    }

    /// Every prompt as `prompts/list` shows it (all pages), pretty-printed
    /// JSON with a stable order: commit it as a snapshot, and a change to
    /// any prompt's name, title, description or arguments shows in review.
    ///
    /// # Panics
    ///
    /// If a page cannot be listed, so that a snapshot never silently
    /// misses prompts.
    pub async fn catalog_json(&self) -> String {
        let prompts = self.listed().await;
        let mut text =
            serde_json::to_string_pretty(&json!({ "prompts": prompts })).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The names of the prompts the client may see, in `prompts/list`'s
    /// order (all pages): what to render [matrices](Self::matrix) of.
    ///
    /// # Panics
    ///
    /// If a page cannot be listed.
    pub async fn prompt_names(&self) -> Vec<String> {
        self.listed()
            .await
            .iter()
            .filter_map(|prompt| prompt["name"].as_str().map(str::to_owned))
            .collect()
    }

    /// Every prompt `prompts/list` shows, all pages.
    async fn listed(&self) -> Vec<Value> {
        let mut prompts = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let mut page = match self.request("prompts/list", &params).await {
                Ok(page) => page,
                Err(err) => panic!("prompts/list failed: {err}"),
            };
            if let Some(Value::Array(list)) = page.get_mut("prompts").map(Value::take) {
                prompts.extend(list);
            }
            cursor = page
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned);
            if cursor.is_none() {
                break;
            }
        }
        prompts
    }

    /// Answers a request the server sent (`elicitation/create`) with the
    /// client's answers; notifications need no answer.
    /// Answers what the server asks while a request runs (its
    /// notifications need no answer).
    fn answer_server(&self, message: ToClient) {
        let ToClient::Elicit { id, params } = message else {
            return;
        };
        let answer = match &self.answers {
            Some(answers) => answers.answer(&Question::of(&params)),
            None => Answer::Cancel,
        };
        let id: Value = serde_json::from_str(id.get()).unwrap_or_default();
        let response = json!({ "jsonrpc": "2.0", "id": id, "result": answer.to_result() });
        let _ = self
            .session
            .serve_text(&response.to_string(), &Sender::LOCAL);
    }

    fn envelope(&self, method: &str, params: &Value) -> String {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string()
    }
}

impl<const N: usize> From<(&'static str, [(&'static str, &str); N])> for GetPrompt {
    fn from((name, arguments): (&'static str, [(&'static str, &str); N])) -> Self {
        arguments
            .into_iter()
            .fold(GetPrompt::new(name), |request, (k, v)| request.arg(k, v))
    }
}

#[derive(Deserialize)]
struct Response {
    result: Option<Value>,
    error: Option<ErrorObject>,
}

#[derive(Deserialize)]
struct ErrorObject {
    code: i32,
    message: String,
    data: Option<Value>,
}

/// The result of `prompts/get`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct GetResult {
    description: Option<String>,
    messages: Vec<ReceivedMessage>,
}

impl GetResult {
    /// The description sent with the result.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The messages, in order.
    pub fn messages(&self) -> &[ReceivedMessage] {
        &self.messages
    }

    /// The text of every text message, in order.
    pub fn texts(&self) -> Vec<&str> {
        self.messages
            .iter()
            .filter_map(ReceivedMessage::text)
            .collect()
    }

    /// Each message's role and text (empty for a non-text block).
    pub fn transcript(&self) -> Vec<(Role, &str)> {
        self.messages
            .iter()
            .map(|m| (m.role, m.text().unwrap_or_default()))
            .collect()
    }
}

/// One message as the client received it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ReceivedMessage {
    role: Role,
    content: Value,
}

impl ReceivedMessage {
    /// Who the message is from.
    pub fn role(&self) -> Role {
        self.role
    }

    /// The text, for a text block.
    pub fn text(&self) -> Option<&str> {
        match self.content.get("type").and_then(Value::as_str) {
            Some("text") => self.content.get("text").and_then(Value::as_str),
            _ => None,
        }
    }

    /// The content block as JSON, for images, audio and resources.
    pub fn content(&self) -> &Value {
        &self.content
    }
}

/// The result of `completion/complete`.
#[non_exhaustive]
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Completion {
    /// The values offered, at most 100.
    pub values: Vec<String>,
    /// How many values match in all, if the server said.
    pub total: Option<u64>,
    /// Whether there are more than `values` holds, if the server said.
    #[serde(rename = "hasMore")]
    pub has_more: Option<bool>,
}
