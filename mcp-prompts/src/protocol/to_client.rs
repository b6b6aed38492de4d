//! What the server sends the client on its own (notifications, and its
//! questions), typed until the edge: our transports write it as JSON-RPC
//! ([`ToClient::to_json`]); the rmcp adapter converts it to rmcp's types.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

use super::LogLevel;

/// The `_meta` key tying a notification to its `subscriptions/listen`.
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// One message to the client.
#[derive(Debug)]
pub(crate) enum ToClient {
    /// `notifications/message`.
    Log { level: LogLevel, data: Value },
    /// `notifications/progress`.
    Progress {
        token: Box<RawValue>,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    /// `notifications/prompts/list_changed`; on a 2026-07-28
    /// `subscriptions/listen` stream, tagged with the listen's id.
    PromptsListChanged { subscription: Option<Box<RawValue>> },
    /// `notifications/resources/list_changed` (the skills served changed);
    /// on a listen stream, tagged as above.
    ResourcesListChanged { subscription: Option<Box<RawValue>> },
    /// `notifications/subscriptions/acknowledged` (2026-07-28): what the
    /// listen `subscription` will hear of.
    Acknowledged {
        subscription: Box<RawValue>,
        prompts_list_changed: bool,
        resources_list_changed: bool,
    },
    /// `notifications/cancelled`: a request of ours is withdrawn.
    Cancelled {
        request: Box<RawValue>,
        reason: String,
    },
    /// `elicitation/create`, a request: `id` is ours, as JSON.
    Elicit { id: Box<RawValue>, params: Value },
}

impl ToClient {
    /// The message as JSON-RPC text.
    pub(crate) fn to_json(&self) -> String {
        // Only JSON values, strings and numbers: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The JSON-RPC method.
    pub(crate) fn method(&self) -> &'static str {
        match self {
            Self::Log { .. } => "notifications/message",
            Self::Progress { .. } => "notifications/progress",
            Self::PromptsListChanged { .. } => "notifications/prompts/list_changed",
            Self::ResourcesListChanged { .. } => "notifications/resources/list_changed",
            Self::Acknowledged { .. } => "notifications/subscriptions/acknowledged",
            Self::Cancelled { .. } => "notifications/cancelled",
            Self::Elicit { .. } => "elicitation/create",
        }
    }
}

impl Serialize for ToClient {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        if let Self::Elicit { id, .. } = self {
            map.serialize_entry("id", id)?;
        }
        map.serialize_entry("method", self.method())?;
        match self {
            Self::Log { level, data } => {
                map.serialize_entry(
                    "params",
                    &LogParams {
                        level: *level,
                        data,
                    },
                )?;
            }
            Self::Progress {
                token,
                progress,
                total,
                message,
            } => {
                let params = ProgressParams {
                    token,
                    progress: *progress,
                    total: *total,
                    message: message.as_deref(),
                };
                map.serialize_entry("params", &params)?;
            }
            Self::PromptsListChanged { subscription: None }
            | Self::ResourcesListChanged { subscription: None } => {}
            Self::PromptsListChanged {
                subscription: Some(subscription),
            }
            | Self::ResourcesListChanged {
                subscription: Some(subscription),
            } => {
                let params = Tagged {
                    meta: Subscription { id: subscription },
                    notifications: None,
                };
                map.serialize_entry("params", &params)?;
            }
            Self::Acknowledged {
                subscription,
                prompts_list_changed,
                resources_list_changed,
            } => {
                let params = Tagged {
                    meta: Subscription { id: subscription },
                    notifications: Some(Filter {
                        prompts_list_changed: prompts_list_changed.then_some(true),
                        resources_list_changed: resources_list_changed.then_some(true),
                    }),
                };
                map.serialize_entry("params", &params)?;
            }
            Self::Cancelled { request, reason } => {
                map.serialize_entry("params", &CancelledParams { request, reason })?;
            }
            Self::Elicit { params, .. } => map.serialize_entry("params", params)?,
        }
        map.end()
    }
}

#[derive(Serialize)]
struct LogParams<'a> {
    level: LogLevel,
    data: &'a Value,
}

#[derive(Serialize)]
struct ProgressParams<'a> {
    #[serde(rename = "progressToken")]
    token: &'a RawValue,
    progress: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

#[derive(Serialize)]
struct CancelledParams<'a> {
    #[serde(rename = "requestId")]
    request: &'a RawValue,
    reason: &'a str,
}

/// Params tagged with the subscription they belong to.
#[derive(Serialize)]
struct Tagged<'a> {
    #[serde(rename = "_meta")]
    meta: Subscription<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    notifications: Option<Filter>,
}

struct Subscription<'a> {
    id: &'a RawValue,
}

impl Serialize for Subscription<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(SUBSCRIPTION_ID, self.id)?;
        map.end()
    }
}

#[derive(Serialize)]
struct Filter {
    #[serde(rename = "promptsListChanged", skip_serializing_if = "Option::is_none")]
    prompts_list_changed: Option<bool>,
    #[serde(
        rename = "resourcesListChanged",
        skip_serializing_if = "Option::is_none"
    )]
    resources_list_changed: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    #[test]
    fn writes_each_message_as_the_specification_shapes_it() {
        let cases = [
            (
                ToClient::Log {
                    level: LogLevel::Warning,
                    data: "careful".into(),
                },
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"careful"}}"#,
            ),
            (
                ToClient::Progress {
                    token: raw("7"),
                    progress: 1.0,
                    total: None,
                    message: Some("reading".into()),
                },
                r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1.0,"message":"reading"}}"#,
            ),
            (
                ToClient::PromptsListChanged { subscription: None },
                r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}"#,
            ),
            (
                ToClient::PromptsListChanged {
                    subscription: Some(raw(r#""s1""#)),
                },
                r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s1"}}}"#,
            ),
            (
                ToClient::Acknowledged {
                    subscription: raw("3"),
                    prompts_list_changed: false,
                    resources_list_changed: false,
                },
                r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":3},"notifications":{}}}"#,
            ),
            (
                ToClient::ResourcesListChanged {
                    subscription: Some(raw("4")),
                },
                r#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":4}}}"#,
            ),
            (
                ToClient::Acknowledged {
                    subscription: raw("4"),
                    prompts_list_changed: true,
                    resources_list_changed: true,
                },
                r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":4},"notifications":{"promptsListChanged":true,"resourcesListChanged":true}}}"#,
            ),
            (
                ToClient::Cancelled {
                    request: raw(r#""q-1""#),
                    reason: "late".into(),
                },
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"q-1","reason":"late"}}"#,
            ),
            (
                ToClient::Elicit {
                    id: raw(r#""q-2""#),
                    params: serde_json::json!({"message": "?"}),
                },
                r#"{"jsonrpc":"2.0","id":"q-2","method":"elicitation/create","params":{"message":"?"}}"#,
            ),
        ];
        for (message, expected) in cases {
            assert_eq!(message.to_json(), expected);
        }
    }
}
