// Drives the fixture server, whose catalog is live, with the official MCP
// TypeScript SDK client: a prompt removed, added back, disabled and enabled
// again while the client is connected is seen through
// notifications/prompts/list_changed and a new prompts/list. Over stdio (it
// starts the binary) or Streamable HTTP (the server is running).
// Usage: node live.mjs <path to the fixture server | http://host:port/mcp>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";
import { announcements } from "./announcements.mjs";

const target = process.argv[2];
const transport = target.startsWith("http")
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target, args: [], stderr: "ignore" });
const client = new Client({ name: "mcp-prompts-live-test", version: "1.0.0" });

const nextAnnouncement = announcements(client);

await client.connect(transport);
let failed = 0;
try {
  assert.deepEqual(client.getServerCapabilities().prompts, { listChanged: true });
  const names = async () => (await client.listPrompts()).prompts.map((p) => p.name);
  assert.ok((await names()).includes("whoami"));
  for (const [change, name, present] of [
    ["remove", "whoami", false],
    ["add", "whoami", true],
    ["disable", "whoami", false],
    ["enable", "whoami", true],
  ]) {
    const heard = nextAnnouncement();
    const r = await client.getPrompt({ name: "change", arguments: { change, name } });
    const word = change[0].toUpperCase() + change.slice(1);
    assert.equal(r.messages[0].content.text, `${word} ${name}: true`);
    await heard;
    assert.equal((await names()).includes(name), present, `${change} ${name}`);
  }
  console.log("ok - changes come as list_changed");
} catch (err) {
  failed += 1;
  console.log(`FAILED - changes come as list_changed: ${err && err.stack ? err.stack : err}`);
}
await client.close();
console.log(`${1 - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
