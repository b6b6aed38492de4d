// Drives the prompt tools (`--prompts-as-tools`) with the official MCP
// TypeScript SDK client's callTool, over stdio (it starts the binary with
// that flag) or Streamable HTTP (the server is running with it). With
// `with_rmcp`, the server is examples/with_rmcp.rs, whose rmcp tool router
// has the prompt tools beside its own `word_count`: the same answers.
// Usage: node tools.mjs <path to the binary | http://host:port/mcp> [with_rmcp]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";
import { check, finish } from "./checks.mjs";

const target = process.argv[2];
const withRmcp = process.argv[3] === "with_rmcp";
const transport = target.startsWith("http")
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target, args: ["--prompts-as-tools"], stderr: "ignore" });
const client = new Client({ name: "mcp-prompts-tools-test", version: "1.0.0" });
await client.connect(transport);

const texts = (result) => result.content.map((block) => block.text);

await check("tools are declared: the two prompt tools", async () => {
  assert.ok(client.getServerCapabilities().tools, "tools capability");
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  const ours = names.filter((n) => n !== "word_count");
  // Ours lists list_prompts first; rmcp's router orders tools its own way.
  assert.deepEqual(withRmcp ? ours.sort() : ours, withRmcp ? ["get_prompt", "list_prompts"] : ["list_prompts", "get_prompt"]);
  assert.equal(names.includes("word_count"), withRmcp);
  const list = tools.find((t) => t.name === "list_prompts");
  assert.equal(list.annotations.readOnlyHint, true);
  assert.equal(list.outputSchema.type, "object");
});

await check("list_prompts: text and structured content", async () => {
  // The client checks structuredContent against the declared output schema.
  const r = await client.callTool({ name: "list_prompts", arguments: {} });
  assert.notEqual(r.isError, true);
  assert.match(r.content[0].text, /^code_review \(Review code\): Review a code snippet$/m);
  const review = r.structuredContent.prompts.find((p) => p.name === "code_review");
  assert.deepEqual(review.arguments.map((a) => [a.name, a.required]), [
    ["language", true], ["code", true], ["focus", false],
  ]);
});

await check("get_prompt: one text block per message, its role first", async () => {
  const r = await client.callTool({
    name: "get_prompt",
    arguments: { name: "code_review", arguments: { language: "rust", code: "fn main() {}" } },
  });
  assert.notEqual(r.isError, true);
  assert.deepEqual(texts(r), [
    "user:\nI am reviewing rust code.",
    "assistant:\nI will look at correctness first, then style.",
    "user:\nReview this code with a focus on general quality:\n\nfn main() {}",
  ]);
});

await check("get_prompt: an argument error is a tool error with prompts/get's message", async () => {
  const bad = { name: "summarize", arguments: { text: "t", max_words: "many" } };
  const r = await client.callTool({ name: "get_prompt", arguments: bad });
  assert.equal(r.isError, true);
  let message;
  await assert.rejects(client.getPrompt(bad), (err) => {
    assert.equal(err.code, -32602);
    message = err.message;
    return true;
  });
  // The SDK prefixes its own "MCP error -32602: ".
  assert.equal(`MCP error -32602: ${texts(r)[0]}`, message);
  const unknown = await client.callTool({ name: "get_prompt", arguments: { name: "nope" } });
  assert.equal(unknown.isError, true);
  assert.deepEqual(texts(unknown), ["Unknown prompt: nope"]);
});

await check("a prompt kept out of the tools is neither listed nor got", async () => {
  const listed = await client.callTool({ name: "list_prompts", arguments: {} });
  assert.ok(!listed.structuredContent.prompts.some((p) => p.name.startsWith("test_")));
  const r = await client.callTool({ name: "get_prompt", arguments: { name: "test_simple_prompt" } });
  assert.equal(r.isError, true);
  assert.deepEqual(texts(r), ["Unknown prompt: test_simple_prompt"]);
  // prompts/get still serves it.
  assert.equal((await client.getPrompt({ name: "test_simple_prompt" })).messages.length, 1);
});

await client.close();
finish();
