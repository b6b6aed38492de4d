//! Argument types people expect, and what the listing and forms say of
//! them. Dates, times and instants from `chrono`, `jiff` and `time`: a
//! good value of each renders (sent as text, and through the typed
//! builders, whose text must parse back), a bad one is refused with what
//! was expected, a default is checked when the server is built, the
//! listing says the format, and a form asks with the JSON Schema `format`.
//! Numbers in a `#[arg(range)]`: refused outside it, the range listed and
//! in the form, defaults checked against it.

use mcp_prompts::testing::{Answer, Answers, Client};
use mcp_prompts::{Elicited, Error, PromptArgs, RequestContext, Server, Service, catalog, prompt};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// An optional value as it displays; nothing when absent.
fn shown(value: Option<impl std::fmt::Display>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// A day with chrono's types
#[prompt]
fn chrono_day(
    day: chrono::NaiveDate,
    #[arg(default = "09:00:00")] start: chrono::NaiveTime,
    local: Option<chrono::NaiveDateTime>,
    at: Option<chrono::DateTime<chrono::FixedOffset>>,
    utc: Option<chrono::DateTime<chrono::Utc>>,
) -> String {
    let local = shown(local);
    let at = at.map(|t| t.to_rfc3339()).unwrap_or_default();
    let utc = utc.map(|t| t.to_rfc3339()).unwrap_or_default();
    format!("{day} from {start} | {local} | {at} | {utc}")
}

/// A day with jiff's types
#[prompt]
fn jiff_day(
    day: jiff::civil::Date,
    #[arg(default = "09:00")] start: jiff::civil::Time,
    local: Option<jiff::civil::DateTime>,
    at: Option<jiff::Timestamp>,
    zoned: Option<jiff::Zoned>,
) -> String {
    let local = shown(local);
    let at = shown(at);
    let zoned = shown(zoned);
    format!("{day} from {start} | {local} | {at} | {zoned}")
}

/// A day with time's types
#[prompt]
fn time_day(
    day: time::Date,
    #[arg(default = "09:00:00")] start: time::Time,
    local: Option<time::PrimitiveDateTime>,
    at: Option<time::OffsetDateTime>,
) -> String {
    let local = shown(local);
    let at = shown(at);
    format!("{day} from {start} | {local} | {at}")
}

/// When a release goes out, asked of the user.
#[derive(PromptArgs)]
struct Window {
    /// The day
    day: chrono::NaiveDate,
    /// The instant it starts
    starts: jiff::Timestamp,
    /// The instant it ends, if it does
    ends: Option<time::OffsetDateTime>,
}

/// Asks when
#[prompt]
async fn schedule(ctx: RequestContext) -> Result<String, Error> {
    Ok(match ctx.elicit::<Window>("window", "When?").await? {
        Elicited::Accepted(window) => format!("{} at {}", window.day, window.starts),
        _ => "no answer".to_owned(),
    })
}

fn service() -> Service {
    Server::new("dates", "1.0")
        .catalog(catalog![chrono_day, jiff_day, time_day, schedule])
        .build()
        .unwrap()
}

/// The texts of prompt `name` rendered with `arguments`, joined.
async fn text(client: &Client, name: &str, arguments: &[(&str, &str)]) -> Result<String, Error> {
    let arguments: Map<String, Value> = arguments
        .iter()
        .map(|(k, v)| ((*k).to_owned(), json!(v)))
        .collect();
    let params = json!({ "name": name, "arguments": arguments });
    let result = client.request("prompts/get", &params).await?;
    let texts = result["messages"].as_array().into_iter().flatten();
    Ok(texts
        .filter_map(|m| m["content"]["text"].as_str())
        .collect())
}

/// The -32602 prompt `name` gives when `base`'s arguments have `argument`
/// set to `value` (added, or replacing the base's).
async fn refusal(
    client: &Client,
    name: &str,
    base: &[(&'static str, &'static str)],
    (argument, value): (&str, &str),
) -> Error {
    let mut arguments: Vec<(&str, &str)> = base
        .iter()
        .copied()
        .filter(|(a, _)| *a != argument)
        .collect();
    arguments.push((argument, value));
    let error = text(client, name, &arguments).await.unwrap_err();
    assert_eq!(error.code(), Error::INVALID_PARAMS, "{name} {argument}");
    error
}

#[tokio::test]
async fn each_family_parses_iso_8601_and_rfc_3339() {
    let service = service();
    let client = Client::new(&service);
    let chrono = text(
        &client,
        "chrono_day",
        &[
            ("day", "2026-07-28"),
            ("local", "2026-07-28T14:30:00"),
            ("at", "2026-07-28T14:30:00+02:00"),
            ("utc", "2026-07-28T14:30:00+02:00"),
        ],
    )
    .await
    .unwrap();
    assert_eq!(
        chrono,
        "2026-07-28 from 09:00:00 | 2026-07-28 14:30:00 | 2026-07-28T14:30:00+02:00 | 2026-07-28T12:30:00+00:00"
    );
    let jiff = text(
        &client,
        "jiff_day",
        &[
            ("day", "2026-07-28"),
            ("local", "2026-07-28T14:30"),
            ("at", "2026-07-28T14:30:00Z"),
            ("zoned", "2026-07-28T14:30:00+02:00[Europe/Paris]"),
        ],
    )
    .await
    .unwrap();
    assert_eq!(
        jiff,
        "2026-07-28 from 09:00:00 | 2026-07-28T14:30:00 | 2026-07-28T14:30:00Z | 2026-07-28T14:30:00+02:00[Europe/Paris]"
    );
    let time = text(
        &client,
        "time_day",
        &[
            ("day", "2026-07-28"),
            ("local", "2026-07-28T14:30:00"),
            ("at", "2026-07-28T14:30:00+02:00"),
        ],
    )
    .await
    .unwrap();
    assert_eq!(
        time,
        "2026-07-28 from 9:00:00.0 | 2026-07-28 14:30:00.0 | 2026-07-28 14:30:00.0 +02:00:00"
    );
}

#[tokio::test]
async fn the_typed_builders_send_text_that_parses_back() {
    let service = service();
    let client = Client::new(&service);
    let day = chrono::NaiveDate::from_ymd_opt(2026, 7, 28).unwrap();
    let local = day.and_hms_opt(14, 30, 0).unwrap();
    let at = chrono::DateTime::parse_from_rfc3339("2026-07-28T14:30:00+02:00").unwrap();
    let got = client
        .get(
            chrono_day::args()
                .day(day)
                .local(local)
                .at(at)
                .utc(at.to_utc()),
        )
        .await
        .unwrap();
    assert!(got.texts()[0].starts_with("2026-07-28 from 09:00:00 | 2026-07-28 14:30:00 |"));
    let zoned: jiff::Zoned = "2026-07-28T14:30:00+02:00[Europe/Paris]".parse().unwrap();
    let got = client
        .get(
            jiff_day::args()
                .day(zoned.date())
                .start(zoned.time())
                .local(zoned.datetime())
                .at(zoned.timestamp())
                .zoned(zoned.clone()),
        )
        .await
        .unwrap();
    assert!(got.texts()[0].starts_with("2026-07-28 from 14:30:00 |"));
    let at = time::OffsetDateTime::parse(
        "2026-07-28T14:30:00+02:00",
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let got = client
        .get(
            time_day::args()
                .day(at.date())
                .start(at.time())
                .local(time::PrimitiveDateTime::new(at.date(), at.time()))
                .at(at),
        )
        .await
        .unwrap();
    assert_eq!(
        got.texts(),
        ["2026-07-28 from 14:30:00.0 | 2026-07-28 14:30:00.0 | 2026-07-28 14:30:00.0 +02:00:00"]
    );
}

#[tokio::test]
async fn a_bad_value_says_what_was_expected() {
    let service = service();
    let client = Client::new(&service);
    for (name, argument, value, expected) in [
        (
            "chrono_day",
            "day",
            "28/07/2026",
            "expected a date such as 2026-07-28 (",
        ),
        (
            "chrono_day",
            "at",
            "2026-07-28T14:30:00",
            "expected a date and time with an offset such as 2026-07-28T14:30:00+02:00 (",
        ),
        (
            "jiff_day",
            "day",
            "2026-02-30",
            "expected a date such as 2026-07-28 (",
        ),
        (
            "jiff_day",
            "zoned",
            "2026-07-28T14:30:00",
            "expected a date and time in a time zone such as 2026-07-28T14:30:00+02:00[Europe/Paris] (",
        ),
        (
            "time_day",
            "day",
            "July 28",
            "expected a date such as 2026-07-28 (",
        ),
        (
            "time_day",
            "at",
            "2026-07-28 14:30",
            "expected a date and time with an offset such as 2026-07-28T14:30:00+02:00 (",
        ),
    ] {
        let error = refusal(&client, name, &[("day", "2026-07-28")], (argument, value)).await;
        let message = error.message();
        assert!(
            message.starts_with(&format!(
                "invalid value for argument `{argument}`: {expected}"
            )),
            "{message}"
        );
    }
}

/// A default no calendar has
#[prompt]
fn bad_default(#[arg(default = "2026-02-30")] day: chrono::NaiveDate) -> String {
    day.to_string()
}

#[test]
fn a_default_is_checked_when_the_server_is_built() {
    let error = Server::new("dates", "1.0")
        .catalog(catalog![bad_default])
        .build()
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("default `2026-02-30` of argument `day` is not a valid value: expected a date such as 2026-07-28 ("),
        "{message}"
    );
}

#[tokio::test]
async fn the_listing_says_the_format() {
    let service = service();
    let listing: Value = serde_json::from_str(&Client::new(&service).catalog_json().await).unwrap();
    let prompt = listing["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "chrono_day")
        .unwrap();
    let described: Vec<&str> = prompt["arguments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["description"].as_str().unwrap())
        .collect();
    assert_eq!(
        described,
        [
            "Format: YYYY-MM-DD",
            "Format: HH:MM:SS; default: 09:00:00",
            "Format: YYYY-MM-DDTHH:MM:SS",
            "Format: RFC 3339",
            "Format: RFC 3339",
        ]
    );
}

/// Answers that fill a form with `content`, and the schema of the last
/// form they saw.
fn answering(content: Value) -> (Answers, Arc<Mutex<Value>>) {
    let seen = Arc::new(Mutex::new(Value::Null));
    let kept = Arc::clone(&seen);
    let answers = Answers::with(move |question| {
        *kept.lock().unwrap() = question.schema().clone();
        let content: Map<String, Value> = content.as_object().cloned().unwrap_or_default();
        Answer::Accept(content)
    });
    (answers, seen)
}

#[tokio::test]
async fn a_form_asks_with_the_json_schema_format() {
    let service = service();
    let (answers, seen) =
        answering(json!({ "day": "2026-07-28", "starts": "2026-07-28T09:00:00Z" }));
    for client in [
        Client::new(&service).answering(answers.clone()),
        Client::new(&service).stateless().answering(answers.clone()),
    ] {
        let got = client
            .get(("schedule", [] as [(&str, &str); 0]))
            .await
            .unwrap();
        assert_eq!(got.texts(), ["2026-07-28 at 2026-07-28T09:00:00Z"]);
        let schema = seen.lock().unwrap().clone();
        assert_eq!(schema["properties"]["day"]["format"], "date");
        assert_eq!(schema["properties"]["starts"]["format"], "date-time");
        assert_eq!(schema["properties"]["ends"]["format"], "date-time");
        assert_eq!(schema["required"], json!(["day", "starts"]));
    }
}

/// Hours of focus
#[prompt]
fn focus(
    #[arg(range = 1..=8)] hours: u8,
    #[arg(range = 0.0..=1.0, default = 0.5)] share: f64,
    #[arg(range = -10..)] offset: Option<i32>,
) -> String {
    format!("{hours} h, {share}, {offset:?}")
}

/// Asks how long
#[prompt]
async fn ask_focus(ctx: RequestContext) -> Result<String, Error> {
    Ok(match ctx.elicit::<Focus>("focus", "How long?").await? {
        Elicited::Accepted(focus) => format!("{} h", focus.hours),
        _ => "no answer".to_owned(),
    })
}

/// How long to focus.
#[derive(PromptArgs)]
struct Focus {
    /// Hours
    #[arg(range = 1..=8)]
    hours: u8,
}

fn focus_service() -> Service {
    Server::new("ranges", "1.0")
        .catalog(catalog![focus, ask_focus])
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_number_outside_its_range_is_refused() {
    let service = focus_service();
    let client = Client::new(&service);
    let fine = text(&client, "focus", &[("hours", "8"), ("offset", "-10")]).await;
    assert_eq!(fine.unwrap(), "8 h, 0.5, Some(-10)");
    for (argument, value, expected) in [
        ("hours", "9", "expected an integer from 1 to 8 (got `9`)"),
        ("hours", "0", "expected an integer from 1 to 8 (got `0`)"),
        (
            "share",
            "1.5",
            "expected a number from 0.0 to 1.0 (got `1.5`)",
        ),
        (
            "offset",
            "-11",
            "expected an integer at least -10 (got `-11`)",
        ),
    ] {
        let error = refusal(&client, "focus", &[("hours", "2")], (argument, value)).await;
        assert_eq!(
            error.message(),
            format!("invalid value for argument `{argument}`: {expected}")
        );
        assert_eq!(error.data().unwrap()["argument"], argument);
    }
    // Not a number at all: the type's own message.
    let error = text(&client, "focus", &[("hours", "many")])
        .await
        .unwrap_err();
    assert!(
        error
            .message()
            .contains("expected an integer from 0 to 255"),
        "{error:?}"
    );
}

#[tokio::test]
async fn the_range_is_listed_and_bounds_the_form() {
    let service = focus_service();
    let listing: Value = serde_json::from_str(&Client::new(&service).catalog_json().await).unwrap();
    let focus = &listing["prompts"].as_array().unwrap()[1];
    assert_eq!(focus["name"], "focus");
    let described: Vec<&str> = focus["arguments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["description"].as_str().unwrap())
        .collect();
    assert_eq!(
        described,
        [
            "From 1 to 8",
            "From 0.0 to 1.0; default: 0.5",
            "At least -10"
        ]
    );
    let (answers, seen) = answering(json!({ "hours": 3 }));
    let client = Client::new(&service).answering(answers);
    let got = client
        .get(("ask_focus", [] as [(&str, &str); 0]))
        .await
        .unwrap();
    assert_eq!(got.texts(), ["3 h"]);
    let schema = seen.lock().unwrap().clone();
    assert_eq!(
        schema["properties"]["hours"],
        json!({ "type": "integer", "minimum": 1, "maximum": 8, "description": "Hours" })
    );
}

/// A default outside its range
#[prompt]
fn wide(#[arg(range = 1..=8, default = 12)] hours: u8) -> String {
    hours.to_string()
}

#[test]
fn a_default_outside_its_range_fails_the_build() {
    let error = Server::new("ranges", "1.0")
        .catalog(catalog![wide])
        .build()
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("default `12` of argument `hours` is outside its range: from 1 to 8"),
        "{error}"
    );
}
