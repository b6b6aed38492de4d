// Drives the showcase with the official MCP TypeScript SDK client, over
// stdio (it starts the binary) or Streamable HTTP (the server is running).
// With `with_rmcp`, the server is examples/with_rmcp.rs: the showcase's
// prompts served by an rmcp server that also has a tool, which must answer
// exactly as the showcase does.
// Usage: node showcase.mjs <path to the binary | http://host:port/mcp> [with_rmcp]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";
import { check, finish } from "./checks.mjs";

const target = process.argv[2];
const withRmcp = process.argv[3] === "with_rmcp";
const transport = target.startsWith("http")
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target, args: [], stderr: "ignore" });
const client = new Client({ name: "mcp-prompts-official-client-test", version: "1.0.0" });

const text = (role, t) => ({ role, content: { type: "text", text: t } });

async function rejects(call, code, mention) {
  await assert.rejects(call, (err) => {
    assert.equal(err.code, code, `code of ${err.message}`);
    if (mention) assert.match(err.message, new RegExp(mention));
    return true;
  });
}

await client.connect(transport);

await check("initialize negotiated the latest revision", async () => {
  assert.equal(client.getServerVersion().name, withRmcp ? "mcp-prompts-with-rmcp" : "mcp-prompts-showcase");
  // The showcase's catalog is fixed: no change will be announced.
  assert.deepEqual(client.getServerCapabilities().prompts, {});
  assert.deepEqual(client.getServerCapabilities().completions, {});
});

await check("prompts/list shows the catalog", async () => {
  const { prompts } = await client.listPrompts();
  const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
  assert.deepEqual(Object.keys(byName).sort(), [
    "code_review", "deploy_notes", "greet", "release_notes", "status_update", "summarize",
    "test_input_required_result_prompt", "test_prompt_with_arguments",
    "test_prompt_with_embedded_resource", "test_prompt_with_image", "test_simple_prompt",
  ]);
  assert.equal(byName.test_simple_prompt.title, "Simple Test Prompt");
  assert.equal(byName.test_simple_prompt.description, "A simple prompt without arguments");
  assert.deepEqual(byName.test_prompt_with_arguments.arguments, [
    { name: "arg1", description: "First test argument", required: true },
    { name: "arg2", description: "Second test argument", required: true },
  ]);
  assert.deepEqual(byName.test_prompt_with_embedded_resource.arguments.map((a) => a.name), ["resourceUri"]);
  assert.deepEqual(byName.code_review.arguments.map((a) => [a.name, a.required]), [
    ["language", true], ["code", true], ["focus", false],
  ]);
  assert.deepEqual(byName.summarize.arguments.map((a) => [a.name, a.required]), [
    ["text", true], ["max_words", false],
  ]);
  assert.equal(byName.greet.title, "Greeting");
  assert.equal(byName.greet.description, "Compose a greeting");
  assert.deepEqual(byName.greet.arguments.map((a) => [a.name, a.required]), [["name", true], ["tone", false]]);
  assert.equal(byName.greet.arguments[0].description, "Who to greet");
  assert.match(byName.greet.arguments[1].description, /formal, casual; default: casual/);
  assert.equal(byName.release_notes.title, "Release notes");
  assert.equal(byName.release_notes.description, "Draft release notes from a change list");
  assert.deepEqual(byName.release_notes.arguments, [
    { name: "project", description: "Project name", required: true },
    { name: "version", description: "Version being released", required: true },
    { name: "changes", description: "One change per line", required: true },
    { name: "audience", description: "Who reads the notes (say, operators); anyone if left out", required: false },
    { name: "breaking", description: "Whether some changes break compatibility (one of: true, false; default: false)", required: false },
  ]);
});

await check("prompts/get returns the exact messages", async () => {
  let r = await client.getPrompt({ name: "test_simple_prompt" });
  assert.deepEqual(r.messages, [text("user", "This is a simple prompt for testing.")]);
  r = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "testValue1", arg2: "testValue2" } });
  assert.deepEqual(r.messages, [text("user", "Prompt with arguments: arg1='testValue1', arg2='testValue2'")]);
  r = await client.getPrompt({ name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://example-resource" } });
  assert.deepEqual(r.messages, [
    { role: "user", content: { type: "resource", resource: { uri: "test://example-resource", mimeType: "text/plain", text: "Embedded resource content for testing." } } },
    text("user", "Please process the embedded resource above."),
  ]);
  r = await client.getPrompt({ name: "test_prompt_with_image" });
  assert.equal(r.messages[0].content.type, "image");
  assert.equal(r.messages[0].content.mimeType, "image/png");
  assert.equal(r.messages[0].content.data, "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==");
  assert.deepEqual(r.messages[1], text("user", "Please analyze the image above."));
  r = await client.getPrompt({ name: "code_review", arguments: { language: "rust", code: "fn main() {}" } });
  assert.deepEqual(r.messages, [
    text("user", "I am reviewing rust code."),
    text("assistant", "I will look at correctness first, then style."),
    text("user", "Review this code with a focus on general quality:\n\nfn main() {}"),
  ]);
  r = await client.getPrompt({ name: "summarize", arguments: { text: "Hello." } });
  assert.deepEqual(r.messages, [text("user", "Summarize the following text in at most 50 words:\n\nHello.")]);
  assert.equal(r.description, "Summarize a text");
});

await check("greet takes a choice of tone, case-insensitively, with a default", async () => {
  let r = await client.getPrompt({ name: "greet", arguments: { name: "Ann", tone: "Formal" } });
  assert.deepEqual(r.messages, [text("user", "Compose a short, formal greeting for Ann.")]);
  r = await client.getPrompt({ name: "greet", arguments: { name: "Bo" } });
  assert.deepEqual(r.messages, [text("user", "Compose a short, casual greeting for Bo.")]);
  await rejects(client.getPrompt({ name: "greet", arguments: { name: "Ann", tone: "rude" } }), -32602, "`tone`.*`formal`, `casual`");
});

await check("status_update takes a date, and refuses what is not one", async () => {
  const { prompts } = await client.listPrompts();
  const since = prompts.find((p) => p.name === "status_update").arguments[0];
  assert.equal(since.name, "since");
  assert.match(since.description, /YYYY-MM-DD/);
  const r = await client.getPrompt({ name: "status_update", arguments: { since: "2026-07-28", work: "Shipped" } });
  assert.deepEqual(r.messages, [text("user", "Write a short status update on the work done since Tuesday 28 July 2026:\n\nShipped")]);
  await rejects(client.getPrompt({ name: "status_update", arguments: { since: "July 28", work: "x" } }), -32602, "`since`");
});

await check("release_notes renders its template as three messages", async () => {
  const r = await client.getPrompt({
    name: "release_notes",
    arguments: { project: "mcp-prompts", version: "0.2.0", changes: "Add templates\nAdd catalogs" },
  });
  assert.deepEqual(r.messages, [
    text("user", "Write release notes for mcp-prompts 0.2.0."),
    text("assistant", "I will group the changes by kind and keep each line short."),
    text("user", "Changes:\nAdd templates\nAdd catalogs"),
  ]);
  await rejects(client.getPrompt({ name: "release_notes", arguments: { project: "x" } }), -32602, "version");
  const sections = await client.getPrompt({
    name: "release_notes",
    arguments: { project: "p", version: "1", changes: "c", audience: "operators", breaking: "true" },
  });
  assert.equal(sections.messages[0].content.text, "Write release notes for p 1.\nWrite them for operators.");
  assert.match(sections.messages[2].content.text, /^Changes:\nc\n\nSome of these changes break compatibility/);
});

const complete = async (prompt, name, value, context) =>
  (await client.complete({
    ref: { type: "ref/prompt", name: prompt },
    argument: { name, value },
    ...(context ? { context: { arguments: context } } : {}),
  })).completion;

await check("code_review.language completes from its list", async () => {
  assert.deepEqual(await complete("code_review", "language", "py"), { values: ["python"], total: 1, hasMore: false });
  assert.deepEqual((await complete("code_review", "language", "c")).values, ["c", "cpp", "csharp"]);
  assert.deepEqual((await complete("code_review", "language", "J")).values, ["java", "javascript"]);
  assert.deepEqual(await complete("code_review", "language", ""), {
    values: ["c", "cpp", "csharp", "elixir", "go", "haskell", "java", "javascript", "kotlin", "lua",
      "ocaml", "perl", "php", "python", "ruby", "rust", "scala", "swift", "typescript", "zig"],
    total: 20, hasMore: false,
  });
  assert.deepEqual(await complete("code_review", "language", "zz"), { values: [], total: 0, hasMore: false });
});

await check("greet.tone completes its choices with no user code", async () => {
  assert.deepEqual((await complete("greet", "tone", "f")).values, ["formal"]);
  assert.deepEqual((await complete("greet", "tone", "")).values, ["formal", "casual"]);
});

await check("code_review.focus depends on the language already chosen", async () => {
  assert.deepEqual((await complete("code_review", "focus", "", { language: "rust" })).values,
    ["ownership", "lifetimes", "unsafe code", "error handling"]);
  assert.deepEqual((await complete("code_review", "focus", "")).values,
    ["error handling", "performance", "readability"]);
  assert.deepEqual((await complete("code_review", "focus", "e", { language: "rust" })).values, ["error handling"]);
});

await check("an argument with no completer gets an empty list; an unknown prompt -32602", async () => {
  assert.ok(Array.isArray((await complete("test_prompt_with_arguments", "arg1", "test")).values));
  await rejects(complete("no_such_prompt", "arg", ""), -32602, "no_such_prompt");
});

await check("errors carry the spec's codes", async () => {
  await rejects(client.getPrompt({ name: "no_such_prompt" }), -32602, "no_such_prompt");
  await rejects(client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "x" } }), -32602, "arg2");
  for (const bad of ["abc", "-3", "1.5"]) {
    await rejects(client.getPrompt({ name: "summarize", arguments: { text: "t", max_words: bad } }), -32602, "max_words");
  }
});

await check("deploy_notes does not ask a client that cannot elicit", async () => {
  const r = await client.getPrompt({ name: "deploy_notes", arguments: { service: "api" } });
  assert.deepEqual(r.messages, [text("user", "Write generic deployment notes for api.")]);
  assert.equal(r.description, "Draft deployment notes");
  await rejects(client.getPrompt({ name: "deploy_notes", arguments: {} }), -32602, "service");
});

await check("ping and logging/setLevel answer {}", async () => {
  assert.deepEqual(await client.ping(), {});
  assert.deepEqual(await client.setLoggingLevel("info"), {});
});

await check("tools come from rmcp, next to the prompts", async () => {
  if (!withRmcp) {
    assert.equal(client.getServerCapabilities().tools, undefined);
    return;
  }
  const tools = (await client.listTools()).tools.map((t) => t.name);
  assert.deepEqual(tools, ["word_count"]);
  const r = await client.callTool({ name: "word_count", arguments: { text: "one two  three" } });
  assert.deepEqual(r.content, [{ type: "text", text: "3 words" }]);
});

await client.close();
finish();
