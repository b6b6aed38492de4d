//! One JSON-RPC message into a session: fresh, or after `initialize` under
//! 2025-03-26 (batches allowed) or 2025-11-25. The first byte picks which.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let runtime = common::runtime();
    let _entered = runtime.enter();
    let session = common::service().session(None);
    let version = match which % 3 {
        0 => None,
        1 => Some("2025-03-26"),
        _ => Some("2025-11-25"),
    };
    if let Some(version) = version {
        let init = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"f","version":"1"}}}}}}"#
        );
        let _ = runtime.block_on(session.handle(&init).into_message());
    }
    if let Some(answer) = runtime.block_on(session.handle(&text).into_message()) {
        serde_json::from_str::<serde_json::Value>(&answer).expect("every answer is JSON");
    }
});
