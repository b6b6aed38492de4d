// The playground in headless Chromium (Debian's, through playwright-core),
// against the showcase over HTTP, as a person uses it: by labels, roles and
// the keyboard. Usage: node playground.mjs http://127.0.0.1:PORT SCREENSHOT
// Prints one line per check and exits non-zero on the first that fails.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const [base, screenshot] = process.argv.slice(2);
const origin = new URL(base).origin;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
let failed = false;
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
page.setDefaultTimeout(10000);
const elsewhere = [];
page.on('request', (request) => {
  const url = new URL(request.url());
  if (url.protocol !== 'data:' && url.origin !== origin) elsewhere.push(request.url());
});
const problems = [];
page.on('pageerror', (error) => problems.push(String(error)));
// What the page's policy refused: a request the policy blocks never
// reaches the network, so the request listener alone would not see it.
await page.addInitScript(() => {
  window.refused = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.refused.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
});

async function check(name, body) {
  try {
    await body();
    console.log(`ok ${name}`);
  } catch (error) {
    failed = true;
    console.log(`FAILED ${name}: ${error.stack || error}`);
  }
}

// What the page shows of a field, found by its label.
const fieldOf = (label) => page.locator('.field', { has: page.getByLabel(label, { exact: true }) });
const errorOf = (label) => fieldOf(label).locator('.error');
const optionsOf = (label) => fieldOf(label).locator('datalist option')
  .evaluateAll((all) => all.map((o) => o.value));
async function until(test) {
  for (let tries = 0; tries < 100; tries += 1) {
    if (await test()) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`never came true: ${test}`);
}
const roles = () => page.locator('#messages .role').allTextContents();
const texts = () => page.locator('#messages .text').allTextContents();
async function choose(title) {
  await page.getByRole('button', { name: title }).click();
  await page.getByRole('heading', { level: 2, name: title }).waitFor();
}
async function rendered(count) {
  await page.waitForFunction((n) => document.querySelectorAll('#messages > li').length === n
    && !document.getElementById('result').hidden, count);
}

await check('the page comes with its policy', async () => {
  const response = await page.goto(`${base}/playground`);
  assert.equal(response.status(), 200);
  const policy = response.headers()['content-security-policy'];
  assert.match(policy, /script-src 'self'/);
  assert.match(policy, /img-src data:/);
  assert.match(policy, /default-src 'none'/);
  await page.getByRole('button', { name: /Review code/ }).waitFor();
});

await check('the catalog has titles, descriptions, tags and a search', async () => {
  const entries = page.locator('#catalog button');
  assert.ok(await entries.count() >= 5, 'the showcase has several prompts');
  // An icon at a URL is not fetched: its host is named.
  assert.ok((await page.locator('#catalog .icon-host').allTextContents()).includes('www.rust-lang.org'));
  // A data: icon is shown.
  assert.ok(await page.locator('#catalog img.icon').count() >= 1);
  await page.getByLabel('Search prompts').fill('greeting');
  assert.deepEqual(await entries.allTextContents(), ['GreetingCompose a greeting']);
  // Tags are searched, and shown.
  await page.getByLabel('Search prompts').fill('review');
  assert.deepEqual(await entries.allTextContents(), ['Review codeReview a code snippet#code #review']);
  await page.getByLabel('Search prompts').fill('');
});

await check('code_review filled by its labels renders under roles', async () => {
  await choose('Review code');
  assert.deepEqual(await page.locator('#prompt-tags li').allTextContents(), ['code', 'review']);
  await page.getByLabel('language', { exact: true }).fill('rust');
  await page.getByLabel('code', { exact: true }).fill('fn main() {}');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(3);
  assert.deepEqual(await roles(), ['user', 'assistant', 'user']);
  const shown = await texts();
  assert.equal(shown[0], 'I am reviewing rust code.');
  assert.match(shown[2], /fn main\(\) \{\}/);
});

await check('how the prompt appears as a tool', async () => {
  const call = JSON.parse(await page.locator('#tool-call').textContent());
  assert.deepEqual(call, {
    name: 'get_prompt',
    arguments: { name: 'code_review', arguments: { language: 'rust', code: 'fn main() {}' } },
  });
  // A prompt the tools do not offer shows no call.
  await choose('Simple Test Prompt');
  assert.ok(await page.locator('#as-tool').isHidden());
  await choose('Review code');
});

await check('images and embedded resources are shown as a host shows them', async () => {
  await choose('Prompt With Image');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(2);
  const src = await page.locator('#messages img').getAttribute('src');
  assert.match(src, /^data:image\/png;base64,/);
  await choose('Prompt With Embedded Resource');
  await page.getByLabel('resourceUri', { exact: true }).fill('file:///notes.txt');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(2);
  assert.deepEqual(await page.locator('#messages .content-kind').allTextContents(),
    ['embedded resource file:///notes.txt']);
  assert.equal((await texts())[0], 'Embedded resource content for testing.');
});

await check('the copies: a test and a command', async () => {
  await choose('Review code');
  await page.getByLabel('language', { exact: true }).fill('rust');
  await page.getByLabel('code', { exact: true }).fill('fn main() {}');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(3);
  await page.getByRole('button', { name: 'Copy as command' }).click();
  assert.equal(await page.getByLabel('Copied text').inputValue(),
    "cargo run --example showcase -- render code_review language=rust 'code=fn main() {}'");
  await page.getByRole('button', { name: 'Copy as test' }).click();
  const test = await page.getByLabel('Copied text').inputValue();
  assert.match(test, /client\s+\.get\(\("code_review", \[\("language", "rust"\), \("code", "fn main\(\) \{\}"\)\]\)\)/);
  assert.match(test, /"I am reviewing rust code\.",/);
});

await check('a choice is a select of every option, named in its help; free text completes', async () => {
  await choose('Greeting');
  const tone = page.getByLabel('tone', { exact: true });
  assert.equal(await tone.evaluate((e) => e.tagName), 'SELECT');
  const offered = await tone.locator('option').evaluateAll((all) => all.map((o) => o.value));
  assert.ok(offered.includes('formal') && offered.includes('casual'), `${offered}`);
  assert.equal(await tone.inputValue(), 'casual', 'the default is chosen');
  assert.match(await fieldOf('tone').locator('.hint').textContent(), /one of: formal, casual/);
  // code_review's language completes from its list, through the server.
  await choose('Review code');
  await page.getByLabel('language', { exact: true }).pressSequentially('ru');
  await until(async () => (await optionsOf('language')).includes('rust'));
});

await check('a refused value shows its message next to its field', async () => {
  await choose('Summarize');
  await page.getByLabel('text', { exact: true }).fill('Notes.');
  await page.getByLabel('max_words', { exact: true }).fill('-3');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await until(async () => (await errorOf('max_words').textContent()) !== '');
  assert.match(await errorOf('max_words').textContent(), /invalid value for argument `max_words`/);
  assert.equal(await page.getByLabel('max_words', { exact: true }).getAttribute('aria-invalid'), 'true');
});

await check('a required field left empty is said so', async () => {
  await choose('Review code');
  await page.getByLabel('language', { exact: true }).fill('go');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  assert.equal(await errorOf('code').textContent(), 'code is required');
  assert.ok(await page.getByLabel('code', { exact: true }).evaluate((e) => e === document.activeElement));
});

await check('deploy_notes asks, and the answer finishes the render', async () => {
  await choose('Deployment notes');
  await page.getByLabel('service', { exact: true }).fill('api');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await page.getByRole('region', { name: 'Question' }).waitFor();
  assert.equal(await page.locator('#question-message').textContent(), 'Where is api being deployed?');
  await page.getByLabel('environment', { exact: true }).selectOption('staging');
  await page.getByLabel('canary', { exact: true }).selectOption('true');
  await page.getByRole('button', { name: 'Answer' }).click();
  await rendered(1);
  assert.deepEqual(await texts(), ['Write deployment notes for api going to staging (canary: true).']);
  // The copies carry the answers, in the form's order.
  await page.getByRole('button', { name: 'Copy as command' }).click();
  assert.equal(await page.getByLabel('Copied text').inputValue(),
    'cargo run --example showcase -- render deploy_notes service=api --answer canary=true --answer environment=staging');
  await page.getByRole('button', { name: 'Copy as test' }).click();
  assert.match(await page.getByLabel('Copied text').inputValue(),
    /\.answering\(mcp_prompts::testing::Answers::fields\(\[\("canary", serde_json::json!\(true\)\), \("environment", serde_json::json!\("staging"\)\)\]\)\);/);
});

await check('a question declined is answered so', async () => {
  await choose('Deployment notes');
  await page.getByLabel('service', { exact: true }).fill('db');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await page.getByRole('region', { name: 'Question' }).waitFor();
  await page.getByRole('button', { name: 'Decline' }).click();
  await rendered(1);
  assert.deepEqual(await texts(), ['Write generic deployment notes for db.']);
  assert.ok(await page.locator('#question').isHidden());
});

await check('another prompt starts afresh: the copies appear with its result', async () => {
  await choose('Greeting');
  assert.ok(await page.locator('#result').isHidden());
  assert.ok(await page.getByRole('button', { name: 'Copy as command' }).isHidden());
  assert.ok(await page.getByRole('button', { name: 'Copy as test' }).isHidden());
  assert.ok(await page.getByLabel('Copied text').isHidden());
  await page.getByLabel('name', { exact: true }).fill('Ann');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await until(async () => (await texts()).length > 0);
  await page.getByRole('button', { name: 'Copy as command' }).click();
  assert.match(await page.getByLabel('Copied text').inputValue(),
    /^cargo run --example showcase -- render greet name=Ann/);
});

await check('a date is the browser date input, sent as the argument text', async () => {
  await choose('Status update');
  const since = page.getByLabel('since', { exact: true });
  assert.equal(await since.getAttribute('type'), 'date');
  await since.fill('2026-07-28');
  await page.getByLabel('work', { exact: true }).fill('Shipped');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(1);
  assert.deepEqual(await texts(), ['Write a short status update on the work done since Tuesday 28 July 2026:\n\nShipped']);
  await page.getByRole('button', { name: 'Copy as command' }).click();
  assert.equal(await page.getByLabel('Copied text').inputValue(),
    'cargo run --example showcase -- render status_update since=2026-07-28 work=Shipped');
  // Times and instants: seconds always, an instant with the browser's offset.
  assert.equal(await page.evaluate(() => dateText('time', '14:30')), '14:30:00');
  assert.equal(await page.evaluate(() => dateText('datetime', '2026-07-28T14:30')), '2026-07-28T14:30:00');
  assert.match(await page.evaluate(() => dateText('instant', '2026-07-28T14:30')),
    /^2026-07-28T14:30:00[+-]\d\d:\d\d$/);
});

await check('a dotprompt integer is a number input', async () => {
  await page.getByLabel('Search prompts').fill('count things');
  await page.locator('#catalog button').click();
  const count = page.getByLabel('count', { exact: true });
  assert.equal(await count.getAttribute('type'), 'number');
  assert.equal(await count.getAttribute('step'), '1');
  await count.fill('3');
  await page.getByLabel('things', { exact: true }).fill('apples');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(1);
  assert.deepEqual(await texts(), ['List 3 apples.']);
  await page.getByLabel('Search prompts').fill('');
});

await check('a prompt file that names itself in HTML is shown as text', async () => {
  await page.getByLabel('Search prompts').fill('hostile');
  const entry = page.locator('#catalog button');
  assert.equal(await entry.count(), 1);
  assert.equal(await entry.locator('.entry-text > span').first().textContent(),
    '<img src=x onerror="window.pwned = 3">Hostile');
  assert.equal(await entry.locator('small').textContent(), '<script>window.pwned = 4</script>');
  await entry.click();
  assert.match(await fieldOf('topic').locator('.hint').textContent(), /^<b>bold<\/b> · required$/);
  await page.getByLabel('topic', { exact: true }).fill('<i>tides</i>');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(1);
  assert.deepEqual(await texts(), ['About <i>tides</i>.']);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.locator('#catalog img:not(.icon), #prompt img, #prompt i, #prompt b').count(), 0);
  await page.getByLabel('Search prompts').fill('');
});

await check('a script in an argument is shown as text', async () => {
  await choose('Greeting');
  const hostile = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';
  await page.getByLabel('name', { exact: true }).fill(hostile);
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(1);
  assert.equal((await texts())[0], `Compose a short, casual greeting for ${hostile}.`);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.locator('#messages script, #messages img').count(), 0);
});

await check('the keyboard alone chooses and renders', async () => {
  await page.getByLabel('Search prompts').focus();
  await page.keyboard.type('summarize');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 2, name: 'Summarize' }).waitFor();
  // The first field has the focus; Ctrl+Enter renders from a text area.
  await page.keyboard.type('A long text.');
  await page.keyboard.press('Control+Enter');
  await rendered(1);
  assert.match((await texts())[0], /at most 50 words:\n\nA long text\./);
  await page.getByLabel('Search prompts').fill('');
});

await check('the language picker lists the languages and renders in the one chosen', async () => {
  const picker = page.getByLabel('Language', { exact: true });
  assert.deepEqual(await picker.locator('option').allTextContents(), ['en (default)', 'fr', 'de']);
  await picker.selectOption('fr');
  await page.getByRole('button', { name: /Salutation/ }).waitFor();
  await choose('Salutation');
  assert.equal(await page.locator('#prompt-description').textContent(), 'Rédiger une salutation');
  await page.getByLabel('name', { exact: true }).fill('Ann');
  await page.getByRole('button', { name: 'Render', exact: true }).click();
  await rendered(1);
  assert.equal((await texts())[0], 'Rédige une salutation courte et détendue pour Ann.');
  await picker.selectOption('');
  await page.getByRole('heading', { level: 2, name: 'Greeting' }).waitFor();
});

await check('nothing was asked of another origin, and the page raised no error', async () => {
  assert.deepEqual(elsewhere, []);
  assert.deepEqual(await page.evaluate(() => window.refused), []);
  const sources = await page.locator('img').evaluateAll((all) => all.map((i) => i.getAttribute('src')));
  assert.ok(sources.every((src) => src.startsWith('data:')), sources.join());
  assert.deepEqual(problems, []);
});

await choose('Review code');
await page.getByLabel('language', { exact: true }).fill('rust');
await page.getByLabel('code', { exact: true }).fill('fn add(a: i32, b: i32) -> i32 {\n    a - b\n}');
await page.getByLabel('focus', { exact: true }).fill('correctness');
await page.getByRole('button', { name: 'Render', exact: true }).click();
await rendered(3);
await page.screenshot({ path: screenshot, fullPage: true });
console.log(`screenshot ${screenshot}`);
await browser.close();
process.exit(failed ? 1 : 0);
