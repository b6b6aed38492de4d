// Asks the showcase for prompts in the user's language (SEP-2792) with the
// official MCP TypeScript SDK client, which knows nothing of the key: the
// preference goes in each request's raw `_meta`
// (`io.modelcontextprotocol/acceptLanguage`), and the language answered is
// read from the result's `_meta`. The server serves a folder holding
// `review.md`, `review.fr.md` and `review.de.md`. Over stdio (it starts
// the showcase with --prompts-dir DIR) or Streamable HTTP (the showcase is
// running with --prompts-dir DIR).
// Usage: node languages.mjs <path to the showcase | http://host:port/mcp> DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";
import { check, finish } from "./checks.mjs";

const [target, dir] = process.argv.slice(2);
const transport = target.startsWith("http")
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target, args: ["--prompts-dir", dir], stderr: "ignore" });
const client = new Client({ name: "mcp-prompts-languages-test", version: "1.0.0" });
await client.connect(transport);

const PREFERENCE = "io.modelcontextprotocol/acceptLanguage";
const CONTENT = "io.modelcontextprotocol/contentLanguage";
const get = (preference, name = "review", args = { code: "x = 1" }) =>
  client.getPrompt({
    name,
    arguments: args,
    ...(preference === undefined ? {} : { _meta: { [PREFERENCE]: preference } }),
  });
const text = (result) => result.messages.map((m) => m.content.text).join("\n");

await check("RFC 4647 lookup over the weighted ranges", async () => {
  for (const [preference, language, expected] of [
    ["fr-CH, en;q=0.5", "fr", "Relis ce code : x = 1"],
    ["de-AT", "de", "Prüfe diesen Code: x = 1"],
    ["ja", "en", "Review this code: x = 1"],
    ["*", "en", "Review this code: x = 1"],
    ["fr;q=0, de", "de", "Prüfe diesen Code: x = 1"],
  ]) {
    const result = await get(preference);
    assert.equal(text(result), expected, preference);
    assert.equal(result._meta?.[CONTENT], language, preference);
  }
});

await check("two languages in one session, each request its own", async () => {
  const french = await get("fr");
  const german = await get("de");
  const plain = await get(undefined);
  assert.equal(text(french), "Relis ce code : x = 1");
  assert.equal(text(german), "Prüfe diesen Code: x = 1");
  assert.equal(text(plain), "Review this code: x = 1");
  assert.equal(plain._meta?.[CONTENT], undefined);
});

await check("the listing, and a Rust prompt's Fluent texts and body", async () => {
  const listed = await client.listPrompts({ _meta: { [PREFERENCE]: "de" } });
  assert.equal(listed._meta?.[CONTENT], "de");
  const byName = Object.fromEntries(listed.prompts.map((p) => [p.name, p]));
  assert.equal(byName.review.title, "Durchsicht");
  assert.equal(byName.greet.title, "Begrüßung");
  const greeting = await get("de", "greet", { name: "Ann", tone: "casual" });
  assert.equal(text(greeting), "Verfasse eine kurze, lockere Begrüßung für Ann.");
});

await client.close();
finish();
