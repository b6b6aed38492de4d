// Drives the showcase serving with auth on (`--auth-issuer`) with the
// official MCP TypeScript SDK client, as two callers, each with its own
// bearer token: one granted `prompts read`, the other `deploy prompts`.
// Each sees itself in `whoami`; only the second sees `deploy_notes`, which
// the first cannot tell from a prompt that does not exist. Without a
// token, nothing connects.
// Usage: node auth.mjs <http://host:port/mcp> <reader token> <deployer token>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";
import { check, finish } from "./checks.mjs";

const [url, reader, deployer] = process.argv.slice(2);

async function connect(token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "mcp-prompts-auth-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const text = (t) => [{ role: "user", content: { type: "text", text: t } }];

await check("a reader sees itself, and not deploy_notes", async () => {
  const client = await connect(reader);
  const { prompts } = await client.listPrompts();
  const names = prompts.map((p) => p.name);
  assert.ok(names.includes("whoami") && !names.includes("deploy_notes"), names.join());
  const r = await client.getPrompt({ name: "whoami", arguments: {} });
  assert.deepEqual(r.messages, text("You are ann, with scopes: prompts read."));
  for (const name of ["deploy_notes", "no_such_prompt"]) {
    await assert.rejects(client.getPrompt({ name, arguments: { service: "api" } }), (err) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, new RegExp(`Unknown prompt: ${name}$`));
      return true;
    });
  }
  await client.close();
});

await check("a deployer sees deploy_notes", async () => {
  const client = await connect(deployer);
  const { prompts } = await client.listPrompts();
  assert.ok(prompts.some((p) => p.name === "deploy_notes"));
  const r = await client.getPrompt({ name: "whoami", arguments: {} });
  assert.deepEqual(r.messages, text("You are bob, with scopes: deploy prompts."));
  await client.close();
});

await check("no token, no service", async () => {
  await assert.rejects(connect(null));
});

finish();
