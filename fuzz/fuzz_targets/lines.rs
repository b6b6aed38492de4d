//! Any bytes as a newline-delimited stream, cut into chunks the input
//! chooses, through the whole line transport (`Service::serve_io`): every
//! line the server writes is JSON, and it never panics or hangs.
#![no_main]

mod common;

#[path = "../../tests/support/chunked.rs"]
mod chunked;

use chunked::Chunked;
use libfuzzer_sys::fuzz_target;
use tokio::io::AsyncReadExt;

fuzz_target!(|data: &[u8]| {
    // The first bytes are chunk lengths (1 to 16), until a zero byte.
    let split = data.iter().position(|&b| b == 0).unwrap_or(0);
    let (lengths, stream) = data.split_at(split);
    let stream = stream.get(1..).unwrap_or_default();
    let mut chunks = Vec::new();
    let mut rest = stream;
    for &length in lengths.iter().cycle().take(stream.len() + 1) {
        if rest.is_empty() {
            break;
        }
        let (head, tail) = rest.split_at(usize::from(length % 16 + 1).min(rest.len()));
        chunks.push(head.to_vec());
        rest = tail;
    }
    if !rest.is_empty() {
        chunks.push(rest.to_vec());
    }
    let output = common::runtime().block_on(async {
        let (writer, mut reader) = tokio::io::duplex(1 << 24);
        common::service()
            .serve_io(Chunked(chunks), writer)
            .await
            .unwrap();
        let mut output = Vec::new();
        reader.read_to_end(&mut output).await.unwrap();
        output
    });
    for line in String::from_utf8(output).expect("UTF-8 out").lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("every line is JSON");
    }
});
