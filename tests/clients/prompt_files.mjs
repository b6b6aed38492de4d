// Drives the showcase serving a directory of prompt files with the official
// MCP TypeScript SDK client: a file added, edited, broken, fixed and
// deleted while the client is connected is seen through
// notifications/prompts/list_changed and a new prompts/list. Over stdio (it
// starts the showcase with --prompts-dir DIR) or Streamable HTTP (the
// showcase is running with --prompts-dir DIR).
// Usage: node prompt_files.mjs <path to the showcase | http://host:port/mcp> DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import assert from "node:assert/strict";
import { announcements } from "./announcements.mjs";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [target, dir] = process.argv.slice(2);
const transport = target.startsWith("http")
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target, args: ["--prompts-dir", dir], stderr: "ignore" });
const client = new Client({ name: "mcp-prompts-files-test", version: "1.0.0" });

const nextAnnouncement = announcements(client);

const file = join(dir, "notes_ts.md");
const prompt = (body) =>
  `+++\ndescription = "Meeting notes"\n\n[[arguments]]\nname = "topic"\nchoices = ["design", "release"]\n+++\n${body}\n`;

await client.connect(transport);
let failed = 0;
try {
  assert.deepEqual(client.getServerCapabilities().prompts, { listChanged: true });
  const names = async () => (await client.listPrompts()).prompts.map((p) => p.name);
  const text = async () =>
    (await client.getPrompt({ name: "notes_ts", arguments: { topic: "Design" } })).messages[0]
      .content.text;
  const count = (await names()).length;
  for (const [step, change, served, expected] of [
    ["add", () => writeFileSync(file, prompt("Notes on {topic}.")), true, "Notes on design."],
    ["edit", () => writeFileSync(file, prompt("Minutes: {topic}.")), true, "Minutes: design."],
    ["break", () => writeFileSync(file, prompt("Minutes: {topc}.")), false],
    ["fix", () => writeFileSync(file, prompt("Fixed: {topic}.")), true, "Fixed: design."],
    ["delete", () => rmSync(file), false],
  ]) {
    const heard = nextAnnouncement();
    change();
    await heard;
    const now = await names();
    assert.equal(now.includes("notes_ts"), served, `${step}: ${now}`);
    assert.equal(now.length, count + (served ? 1 : 0), `${step}: ${now}`);
    if (served) assert.equal(await text(), expected, step);
  }
  console.log("ok - prompt files edited while connected");
} catch (err) {
  failed += 1;
  console.log(`FAILED - prompt files edited while connected: ${err && err.stack ? err.stack : err}`);
}
await client.close();
console.log(`${1 - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
