// The playground in front of a server that checks tokens, in headless
// Chromium: the page asks for a token, and each token sees its prompts.
// Usage: node playground_tokens.mjs http://127.0.0.1:PORT READER DEPLOYER
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const [base, reader, deployer] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
const page = await browser.newPage();
page.setDefaultTimeout(10000);
// The methods the page asks for: this server declares no tools, so the page
// never asks for them (a request the server would refuse).
const asked = [];
page.on('request', (request) => {
  const method = request.headers()['mcp-method'];
  if (method) asked.push(method);
});
const titles = () => page.locator('#catalog button .entry-text > span:first-child').allTextContents();

await page.goto(`${base}/playground`);
const token = page.getByLabel('Bearer token');
await token.waitFor();
assert.match(await page.locator('#server').textContent(), /checks tokens/);
assert.deepEqual(await titles(), []);

await token.fill(reader);
await page.getByRole('button', { name: 'Connect' }).click();
await page.getByRole('button', { name: /Review code/ }).waitFor();
// The typed forms came with the token: the language field completes.
await page.getByRole('button', { name: /Review code/ }).click();
assert.ok(await page.getByLabel('language', { exact: true }).getAttribute('list'));
assert.ok(!(await titles()).includes('Deployment notes'), 'the reader may not see deploy_notes');

await token.fill(deployer);
await page.getByRole('button', { name: 'Connect' }).click();
await page.getByRole('button', { name: /Deployment notes/ }).waitFor();
await page.getByRole('button', { name: /Deployment notes/ }).click();
await page.getByLabel('service', { exact: true }).fill('api');
await page.getByRole('button', { name: 'Render', exact: true }).click();
await page.getByRole('region', { name: 'Question' }).waitFor();
assert.ok(asked.includes('server/discover'), `${asked}`);
assert.ok(!asked.includes('tools/list'), `tools asked for where none are declared: ${asked}`);
console.log('ok tokens: asked for, and each one sees its prompts');
await browser.close();
