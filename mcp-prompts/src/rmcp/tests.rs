//! The conversions between our types and rmcp's: listings as our own
//! serializer writes them, arguments as our JSON reader reads them, errors
//! with their code and data.

use crate::caller::Access;
use crate::catalog::AnyPrompt;
use crate::catalog::listing::Shown;
use serde_json::{Value, json};

use super::prompts::listed;
use super::*;
use crate::dynamic::{DynamicArgument, DynamicPrompt};
use crate::server::Server;

fn catalog() -> Service {
    let standup = DynamicPrompt::builder("standup")
        .title("Daily standup")
        .description("Plan the day")
        .argument(
            DynamicArgument::new("yesterday")
                .title("Yesterday")
                .description("What you did"),
        )
        .argument(
            DynamicArgument::new("mood")
                .default("ok")
                .choices(["great", "ok"]),
        )
        .template("{yesterday} {mood}")
        .icon(crate::Icon::new("https://example.com/standup.png").sizes(["48x48"]))
        .icon(crate::Icon::embedded("image/svg+xml", b"<svg/>").theme(crate::IconTheme::Dark))
        .meta("com.example/owner", "team-x")
        .meta("com.example/priority", 3)
        .tags(["daily"])
        .build()
        .unwrap();
    let bare = DynamicPrompt::builder("bare")
        .template("Hi")
        .build()
        .unwrap();
    Server::new("t", "1")
        .prompts([standup, bare])
        .build()
        .unwrap()
}

#[test]
fn a_listing_converts_as_our_serializer_writes_it() {
    let service = catalog();
    let served = service.snapshot();
    for version in ProtocolVersion::ALL {
        let ours: Value =
            serde_json::to_value(served.page(version, None, (&Access::Local, None)).unwrap())
                .unwrap();
        let page = served
            .page_of(version, None, (&Access::Local, None))
            .unwrap();
        let next = page.next_cursor();
        let theirs: Vec<Value> = page
            .shown()
            .iter()
            .map(|p| serde_json::to_value(listed(p)).unwrap())
            .collect();
        assert_eq!(Value::from(theirs), ours["prompts"], "{version}");
        assert_eq!(next, None);
    }
}

#[test]
fn pages_and_cursors_match_ours() {
    let service = Server::new("t", "1")
        .prompts(
            ["a", "b", "c"].map(|name| DynamicPrompt::builder(name).template("x").build().unwrap()),
        )
        .page_size(2)
        .build()
        .unwrap();
    let served = service.snapshot();
    let ours: Value = serde_json::to_value(
        served
            .page(ProtocolVersion::LATEST, None, (&Access::Local, None))
            .unwrap(),
    )
    .unwrap();
    let latest = ProtocolVersion::LATEST;
    let page = served
        .page_of(latest, None, (&Access::Local, None))
        .unwrap();
    assert_eq!(page.shown().len(), 2);
    assert_eq!(page.next_cursor(), ours["nextCursor"].as_str());
    let last = served
        .page_of(latest, page.next_cursor(), (&Access::Local, None))
        .unwrap();
    let names: Vec<&str> = last.shown().iter().map(Shown::name).collect();
    assert_eq!(names, ["c"]);
    assert_eq!(last.next_cursor(), None);
    let error = served
        .page_of(latest, Some("bogus"), (&Access::Local, None))
        .err()
        .unwrap();
    assert_eq!(error.code(), Error::INVALID_PARAMS);
}

#[test]
fn errors_keep_their_code_message_and_data() {
    let error = Error::invalid_params("bad").with_data(json!({"argument": "x"}));
    let converted = to_rmcp(&error);
    assert_eq!(converted.code.0, -32602);
    assert_eq!(converted.message, "bad");
    assert_eq!(converted.data, Some(json!({"argument": "x"})));
    let plain = to_rmcp(&Error::new(-32601, "no"));
    assert_eq!((plain.code.0, plain.data), (-32601, None));
}

#[test]
fn capabilities_add_prompts_completions_and_logging() {
    let service = catalog();
    let prompts = RmcpPrompts::new(&service);
    let capabilities = prompts.capabilities(ServerCapabilities::default());
    let wire = serde_json::to_value(&capabilities).unwrap();
    assert_eq!(wire["prompts"], json!({}));
    assert_eq!(wire["completions"], json!({}));
    assert_eq!(wire["logging"], json!({}));
    let (live, _) = Server::new("t", "1")
        .prompts(std::iter::empty::<AnyPrompt>())
        .build_live()
        .unwrap();
    let wire =
        serde_json::to_value(RmcpPrompts::new(&live).capabilities(ServerCapabilities::default()))
            .unwrap();
    assert_eq!(wire["prompts"], json!({"listChanged": true}));
}

#[test]
fn a_clone_serves_another_session() {
    let service = catalog();
    let first = RmcpPrompts::new(&service);
    let second = first.clone();
    // The catalog is shared; the session (peer, log level, requests) is not.
    assert!(!Arc::ptr_eq(&first.forwarder, &second.forwarder));
    first.outbound.set_log_level(LogLevel::Error);
    assert_ne!(second.outbound.log_level(), LogLevel::Error);
}

#[test]
#[allow(deprecated)] // rmcp's logging types, deprecated with logging itself.
fn log_levels_map_to_the_same_level_by_name() {
    use ::rmcp::model::LoggingLevel as Level;
    let levels = [
        Level::Debug,
        Level::Info,
        Level::Notice,
        Level::Warning,
        Level::Error,
        Level::Critical,
        Level::Alert,
        Level::Emergency,
    ];
    for level in levels {
        let name = serde_json::to_value(level).unwrap();
        assert_eq!(
            Some(log_level(level)),
            LogLevel::parse(name.as_str().unwrap()),
            "{name}"
        );
    }
}

#[test]
fn ids_of_rmcp_are_kept_as_their_json() {
    use ::rmcp::model::NumberOrString;
    assert_eq!(raw_id(&NumberOrString::Number(-7)).get(), "-7");
    let quoted = raw_id(&NumberOrString::String("a\"b".into()));
    assert_eq!(quoted.get(), r#""a\"b""#);
    // Each is an id a request may carry.
    let ids = [
        raw_id(&NumberOrString::Number(i64::MAX)),
        raw_id(&NumberOrString::String("".into())),
    ];
    for id in ids {
        let text = format!(r#"{{"jsonrpc":"2.0","id":{},"method":"ping"}}"#, id.get());
        let read = crate::protocol::jsonrpc::classify(&text);
        assert!(
            matches!(read, Ok(crate::protocol::jsonrpc::Incoming::Request { .. })),
            "{text}"
        );
    }
}
