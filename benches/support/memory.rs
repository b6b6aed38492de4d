//! What the in-memory benches share: a prompt they both serve, and the
//! stdio path driven from memory to memory.

use mcp_prompts::{Service, prompt};

/// Summarize a text
#[prompt(title = "Summarize")]
pub fn summarize(
    /// The text to summarize
    text: String,
    /// The most words the summary may use
    #[arg(default = 50)]
    max_words: u32,
) -> String {
    format!("Summarize the following text in at most {max_words} words:\n\n{text}")
}

/// What `service` answers `input` (newline-delimited requests) through its
/// stdio path, read from memory and written to memory.
pub fn serve(service: &Service, runtime: &tokio::runtime::Runtime, input: &[u8]) -> Vec<u8> {
    let (writer, reader) = tokio::io::duplex(1 << 20);
    runtime.block_on(async {
        let read_all = tokio::spawn(async move {
            let mut reader = reader;
            let mut out = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut reader, &mut out)
                .await
                .unwrap();
            out
        });
        service.serve_io(input, writer).await.unwrap();
        read_all.await.unwrap()
    })
}
