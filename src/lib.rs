//! Examples and integration tests of mcp-prompts; not published.
