//! `assert_matrix_snapshot!`: a prompt's argument matrix held to an
//! `insta` snapshot. A macro, not a function, because `insta` files a
//! snapshot beside the test that asserts it: its path must be the
//! caller's, which only an expansion in the caller's code knows.

/// Asserts that prompt `NAME`'s [argument matrix](crate::testing::Client::matrix)
/// matches the `insta` snapshot `matrix_NAME`; given only a client, every
/// prompt the client may see, one snapshot each. It awaits, so it goes in
/// an async test. Feature `insta`, for `[dev-dependencies]`; review new
/// and changed snapshots with `cargo insta review`.
///
/// ```no_run
/// use mcp_prompts::testing::Client;
/// use mcp_prompts::{Server, assert_matrix_snapshot, catalog, prompt};
///
/// /// Greet someone
/// #[prompt]
/// fn greet(#[arg(example = "Ada")] name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let service = Server::new("t", "1").catalog(catalog![greet]).build().unwrap();
/// let client = Client::new(&service);
/// assert_matrix_snapshot!(client, "greet"); // the snapshot `matrix_greet`
/// assert_matrix_snapshot!(client); // every prompt the client sees
/// # });
/// ```
///
/// # Panics
///
/// When the document differs from the snapshot (as `insta` does), or the
/// prompt is not one the client may see.
#[macro_export]
macro_rules! assert_matrix_snapshot {
    ($client:expr, $name:expr $(,)?) => {{
        let client: &$crate::testing::Client = &$client;
        let name: &str = ::core::convert::AsRef::<str>::as_ref(&$name);
        match client.matrix(name).await {
            ::core::result::Result::Ok(document) => {
                $crate::testing::__insta::assert_snapshot!(
                    ::std::format!("matrix_{name}"),
                    document
                );
            }
            ::core::result::Result::Err(error) => {
                ::core::panic!("prompt `{}` has no matrix: {}", name, error.message());
            }
        }
    }};
    ($client:expr $(,)?) => {{
        let client: &$crate::testing::Client = &$client;
        for name in client.prompt_names().await {
            $crate::assert_matrix_snapshot!(*client, name);
        }
    }};
}
