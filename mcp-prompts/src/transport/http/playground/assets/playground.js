// The playground: lists the prompts, builds a form from each one's typed
// arguments, renders it through the MCP endpoint (revision 2026-07-28,
// stateless, as any client), answers the questions a prompt asks, and
// writes the render as a test or a command.
//
// Every text that comes from the server (names, descriptions, messages,
// errors) is set with `textContent` or as an attribute's value, never
// parsed as HTML.
'use strict';

const REVISION = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const TAGS = 'mcp-prompts/tags';

const page = document.body.dataset;
const $ = (id) => document.getElementById(id);

const state = {
  token: '',
  nextId: 1,
  prompts: [],
  forms: {},
  tools: null,
  current: null,
  // The arguments and messages of the last render, for the copies.
  sent: null,
  messages: null,
  // An unanswered question: the request to send again, and its state.
  pending: null,
};

/** An element with text, attributes and children; text is never HTML. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
}

class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** The JSON-RPC response with `id` in an event stream's text. */
function fromEvents(text, id) {
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) continue;
    const message = JSON.parse(data);
    if (message.id === id) return message;
  }
  throw new RpcError(-32603, 'the response stream ended without an answer');
}

/** One request to the endpoint, as a 2026-07-28 client sends it. */
async function rpc(method, params = {}, name) {
  const id = state.nextId++;
  const meta = {
    [META_VERSION]: REVISION,
    [META_CAPABILITIES]: { elicitation: { form: {} } },
  };
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': REVISION,
    'Mcp-Method': method,
  };
  if (name !== undefined) headers['Mcp-Name'] = name;
  if (state.token) headers.Authorization = `Bearer ${state.token}`;
  const response = await fetch(page.endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  if (response.status === 401 || response.status === 403) {
    showTokenBox(response.status === 401
      ? 'This server checks tokens: paste a bearer token and connect.'
      : 'This token may not do that.');
    throw new RpcError(-32001, `HTTP ${response.status}`);
  }
  const text = await response.text();
  const type = response.headers.get('content-type') || '';
  const message = type.startsWith('text/event-stream') ? fromEvents(text, id) : JSON.parse(text);
  if (message.error) throw new RpcError(message.error.code, message.error.message, message.error.data);
  return message.result;
}

function showTokenBox(why) {
  $('token-box').hidden = false;
  $('server').textContent = why;
}

// ---- the catalog ----------------------------------------------------------

async function load() {
  const prompts = [];
  let cursor;
  do {
    const page = await rpc('prompts/list', cursor ? { cursor } : {});
    prompts.push(...page.prompts);
    cursor = page.nextCursor;
  } while (cursor);
  state.prompts = prompts;
  const headers = state.token ? { Authorization: `Bearer ${state.token}` } : {};
  const forms = await fetch(`${location.pathname.replace(/\/$/, '')}/forms.json`, { headers });
  state.forms = forms.ok ? (await forms.json()).prompts : {};
  try {
    state.tools = (await rpc('tools/list')).tools;
  } catch {
    state.tools = null;
  }
  $('server').textContent = `${prompts.length} prompts`;
  showCatalog();
}

function tagsOf(prompt) {
  const tags = prompt._meta && prompt._meta[TAGS];
  return Array.isArray(tags) ? tags.map(String) : [];
}

/** A prompt's icon: a `data:` image is shown; a URL is never fetched, so
 *  it is shown as its host's name. */
function iconOf(prompt) {
  const icon = (prompt.icons || [])[0];
  if (!icon || typeof icon.src !== 'string') return null;
  if (icon.src.startsWith('data:image/')) {
    return el('img', { class: 'icon', src: icon.src, alt: '' });
  }
  let host = '';
  try {
    host = new URL(icon.src).host;
  } catch {
    return null;
  }
  return el('span', { class: 'icon-host', text: host, title: `icon at ${host}` });
}

function showCatalog() {
  const query = $('search').value.trim().toLowerCase();
  const list = $('catalog');
  list.replaceChildren();
  for (const prompt of state.prompts) {
    const haystack = [prompt.name, prompt.title, prompt.description, ...tagsOf(prompt)]
      .filter(Boolean)
      .join(' ')
      .toLowerCase();
    if (query && !haystack.includes(query)) continue;
    const text = el('span', { class: 'entry-text' },
      el('span', { text: prompt.title || prompt.name }),
      el('small', { text: prompt.description || '' }));
    const tags = tagsOf(prompt);
    if (tags.length) {
      text.append(el('span', { class: 'entry-tags', text: tags.map((tag) => `#${tag}`).join(' ') }));
    }
    const button = el('button', {
      type: 'button',
      'data-prompt': prompt.name,
      'aria-current': state.current && state.current.name === prompt.name ? 'true' : 'false',
    });
    const icon = iconOf(prompt);
    if (icon) button.append(icon);
    button.append(text);
    button.addEventListener('click', () => choose(prompt.name));
    list.append(el('li', {}, button));
  }
}

// ---- the form ---------------------------------------------------------------

/** The JSON Schema of a prompt's arguments: the server's, or one built
 *  from the listing when it has none. */
function schemaOf(prompt) {
  const form = state.forms[prompt.name];
  if (form) return form.schema;
  const properties = {};
  const required = [];
  for (const arg of prompt.arguments || []) {
    properties[arg.name] = { type: 'string', description: arg.description };
    if (arg.required) required.push(arg.name);
  }
  return { type: 'object', properties, required };
}

/** One labelled control for field `name` of `schema`, under `prefix`. */
function field(prefix, name, schema, required, promptName) {
  const id = `${prefix}-${name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const label = el('label', { for: id, text: name });
  let control;
  const choices = Array.isArray(schema.enum) ? schema.enum.map(String) : null;
  if (schema.type === 'boolean') {
    control = el('select', { id, name });
    const options = required ? ['true', 'false'] : ['', 'true', 'false'];
    for (const value of options) {
      control.append(el('option', { value, text: value === '' ? '(not sent)' : value }));
    }
    if (schema.default !== undefined) control.value = String(schema.default);
  } else if (choices && !schema['x-completes']) {
    control = el('select', { id, name });
    if (!required) control.append(el('option', { value: '', text: '(not sent)' }));
    for (const value of choices) control.append(el('option', { value, text: value }));
    if (schema.default !== undefined) control.value = String(schema.default);
  } else if (schema['x-format'] === 'JSON') {
    control = el('textarea', { id, name, rows: 3, spellcheck: 'false' });
  } else if (schema.type === 'integer' || schema.type === 'number') {
    control = el('input', {
      id,
      name,
      type: 'number',
      step: schema.type === 'integer' ? '1' : 'any',
      min: schema.minimum,
      max: schema.maximum,
    });
  } else if (schema['x-completes'] || schema.maxLength === 1) {
    control = el('input', { id, name, type: 'text', autocomplete: 'off', spellcheck: 'false' });
  } else {
    // Free text: prompts take code, notes and documents, several lines.
    control = el('textarea', { id, name, rows: 2, spellcheck: 'false' });
  }
  if (control.tagName !== 'SELECT') {
    const example = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
    if (example !== undefined) control.placeholder = String(example);
    if (schema.default !== undefined) control.placeholder = `default: ${schema.default}`;
  }
  // Choices and completions as a list under the field, narrowed by the
  // server's completions as the user types.
  let options = null;
  if (schema['x-completes'] && promptName && control.tagName === 'INPUT') {
    options = el('datalist', { id: `${id}-options` });
    for (const value of choices || []) options.append(el('option', { value }));
    control.setAttribute('list', options.id);
    control.addEventListener('input', () => complete(promptName, name, control, options));
  }
  const hints = [];
  if (schema.description) hints.push(schema.description);
  if (schema.type === 'integer' || schema.type === 'number') {
    if (schema.minimum !== undefined && schema.maximum !== undefined) {
      hints.push(`from ${schema.minimum} to ${schema.maximum}`);
    }
  }
  hints.push(required ? 'required' : 'optional');
  if (schema.default !== undefined) hints.push(`default: ${schema.default}`);
  if (schema['x-format']) hints.push(`format: ${schema['x-format']}`);
  control.setAttribute('aria-describedby', `${hintId} ${errorId}`);
  const wrapper = el('div', { class: 'field' },
    label,
    control,
    el('span', { id: hintId, class: 'hint', text: hints.join(' · ') }),
    el('span', { id: errorId, class: 'error', role: 'alert' }));
  if (options) wrapper.append(options);
  return wrapper;
}

/** Asks the server for completions of what is typed so far. */
async function complete(promptName, argument, control, options) {
  const filled = {};
  for (const [key, value] of Object.entries(collect($('fields'), 'arg').values)) {
    if (key !== argument) filled[key] = value;
  }
  try {
    const result = await rpc('completion/complete', {
      ref: { type: 'ref/prompt', name: promptName },
      argument: { name: argument, value: control.value },
      context: { arguments: filled },
    });
    options.replaceChildren(...result.completion.values.map((value) => el('option', { value })));
  } catch {
    // Nothing to offer: the field stays free text.
  }
}

/** The form's values as argument text, and the required ones left empty. */
function collect(container, prefix) {
  const values = {};
  const missing = [];
  for (const control of container.querySelectorAll('input, select, textarea')) {
    const name = control.name;
    const value = control.value;
    if (value === '') {
      if (control.dataset.required === 'true') missing.push(name);
      continue;
    }
    values[name] = value;
  }
  return { values, missing, prefix };
}

function buildForm(container, prefix, schema, promptName, order) {
  container.replaceChildren();
  const required = new Set(schema.required || []);
  const properties = schema.properties || {};
  for (const name of order || Object.keys(properties)) {
    const property = properties[name];
    if (!property) continue;
    const node = field(prefix, name, property, required.has(name), promptName);
    const control = node.querySelector('input, select, textarea');
    control.dataset.required = String(required.has(name));
    container.append(node);
  }
}

function clearErrors(container) {
  for (const error of container.querySelectorAll('.error')) error.textContent = '';
  for (const control of container.querySelectorAll('[aria-invalid]')) {
    control.removeAttribute('aria-invalid');
  }
  $('form-error').textContent = '';
}

/** Shows `message` next to field `name`, or under the form. */
function showError(prefix, name, message) {
  const error = name ? $(`${prefix}-${name}-error`) : null;
  if (error) {
    error.textContent = message;
    const control = $(`${prefix}-${name}`);
    if (control) control.setAttribute('aria-invalid', 'true');
  } else {
    $('form-error').textContent = message;
  }
}

function choose(name) {
  const prompt = state.prompts.find((p) => p.name === name);
  if (!prompt) return;
  state.current = prompt;
  state.pending = null;
  $('prompt').hidden = false;
  $('prompt-title').textContent = prompt.title || prompt.name;
  $('prompt-name').textContent = prompt.name;
  $('prompt-description').textContent = prompt.description || '';
  $('prompt-tags').replaceChildren(...tagsOf(prompt).map((tag) => el('li', { text: tag })));
  const form = state.forms[prompt.name];
  buildForm($('fields'), 'arg', schemaOf(prompt), prompt.name, form && form.order);
  clearErrors($('arguments'));
  $('result').hidden = true;
  $('question').hidden = true;
  $('copied').value = '';
  showAsTool(prompt, {});
  showCatalog();
  // The keyboard goes on where the work is: the first field, or Render.
  const first = $('fields').querySelector('input, select, textarea') || $('render');
  first.focus();
}

/** How a host that shows only tools gets the prompt, when the server
 *  offers the prompts as tools. */
function showAsTool(prompt, values) {
  const tool = (state.tools || []).find((t) => t.name === 'get_prompt');
  const form = state.forms[prompt.name];
  const offered = tool && (!form || form.asTool);
  $('as-tool').hidden = !offered;
  if (!offered) return;
  $('tool-name').textContent = tool.name;
  const call = { name: tool.name, arguments: { name: prompt.name, arguments: values } };
  $('tool-call').textContent = JSON.stringify(call, null, 2);
}

// ---- rendering ----------------------------------------------------------------

async function render(event) {
  event.preventDefault();
  const prompt = state.current;
  if (!prompt) return;
  clearErrors($('arguments'));
  const { values, missing } = collect($('fields'), 'arg');
  for (const name of missing) showError('arg', name, `${name} is required`);
  if (missing.length) {
    $(`arg-${missing[0]}`).focus();
    return;
  }
  state.sent = values;
  showAsTool(prompt, values);
  await send({ name: prompt.name, arguments: values });
}

/** Sends `prompts/get`, and shows its messages, its error or its question. */
async function send(params) {
  $('question').hidden = true;
  let result;
  try {
    result = await rpc('prompts/get', params, params.name);
  } catch (error) {
    const name = error.data && typeof error.data.argument === 'string' ? error.data.argument : null;
    showError('arg', name, error.message);
    $('result').hidden = true;
    return;
  }
  if (result.resultType === 'input_required') {
    ask(params, result);
    return;
  }
  state.pending = null;
  showMessages(result.messages || []);
}

function ask(params, result) {
  const [key, request] = Object.entries(result.inputRequests || {})[0] || [];
  if (!request || request.method !== 'elicitation/create') {
    $('form-error').textContent = 'The prompt asks for something this page cannot answer.';
    return;
  }
  const schema = request.params.requestedSchema || { properties: {} };
  state.pending = { params, key, schema, requestState: result.requestState };
  $('question-message').textContent = request.params.message || '';
  buildForm($('answer-fields'), 'ask', schema, null);
  $('question').hidden = false;
  const first = $('answer-fields').querySelector('input, select, textarea');
  if (first) first.focus();
}

/** A form's text values as the JSON its schema asks for. */
function typed(values, schema) {
  const content = {};
  for (const [name, value] of Object.entries(values)) {
    const type = ((schema.properties || {})[name] || {}).type;
    if (type === 'boolean') content[name] = value === 'true';
    else if (type === 'integer' || type === 'number') content[name] = Number(value);
    else content[name] = value;
  }
  return content;
}

async function answer(action) {
  const pending = state.pending;
  if (!pending) return;
  const response = { action };
  if (action === 'accept') {
    const { values, missing } = collect($('answer-fields'), 'ask');
    clearErrors($('answer'));
    for (const name of missing) showError('ask', name, `${name} is required`);
    if (missing.length) return;
    response.content = typed(values, pending.schema);
  }
  await send({
    ...pending.params,
    inputResponses: { [pending.key]: response },
    requestState: pending.requestState,
  });
}

/** One content block as a host shows it. */
function contentNode(content) {
  switch (content.type) {
    case 'text':
      return el('pre', { class: 'text', text: content.text });
    case 'image':
      return el('img', { src: `data:${content.mimeType};base64,${content.data}`, alt: 'image' });
    case 'audio':
      return el('p', { class: 'content-kind', text: `audio (${content.mimeType})` });
    case 'resource_link':
      return el('p', {},
        el('span', { class: 'content-kind', text: 'resource link: ' }),
        el('span', { text: `${content.name || ''} ${content.uri}`.trim() }));
    case 'resource': {
      const resource = content.resource || {};
      return el('div', {},
        el('p', { class: 'content-kind', text: `embedded resource ${resource.uri || ''}` }),
        typeof resource.text === 'string'
          ? el('pre', { class: 'text', text: resource.text })
          : el('p', { class: 'content-kind', text: resource.mimeType || 'binary' }));
    }
    default:
      return el('p', { class: 'content-kind', text: `${content.type} content` });
  }
}

function showMessages(messages) {
  state.messages = messages;
  const list = $('messages');
  list.replaceChildren(...messages.map((message) => el('li', { class: `message ${message.role}` },
    el('p', { class: 'role', text: message.role }),
    contentNode(message.content || {}))));
  $('result').hidden = false;
}

// ---- copies -------------------------------------------------------------------

/** `text` as a Rust string literal. */
function rustString(text) {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

/** `text` as one shell word. */
function shellWord(text) {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function copy(text) {
  $('copied').value = text;
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

function copyAsTest() {
  const prompt = state.current;
  if (!prompt) return;
  const values = state.sent || collect($('fields'), 'arg').values;
  const pairs = Object.entries(values).map(([k, v]) => `(${rustString(k)}, ${rustString(v)})`);
  const name = prompt.name.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase();
  const lines = [
    '#[tokio::test]',
    `async fn ${name}_renders() {`,
    '    let service = service(); // your Server::new(..).build()',
    '    let client = mcp_prompts::testing::Client::new(&service);',
    '    let result = client',
    `        .get((${rustString(prompt.name)}, [${pairs.join(', ')}]))`,
    '        .await',
    '        .unwrap();',
  ];
  const texts = (state.messages || [])
    .filter((m) => m.content && m.content.type === 'text')
    .map((m) => `        ${rustString(m.content.text)},`);
  if (state.messages) {
    lines.push('    assert_eq!(', '        result.texts(),', '        [', ...texts, '        ]', '    );');
  }
  lines.push('}');
  copy(lines.join('\n'));
}

function copyAsCommand() {
  const prompt = state.current;
  if (!prompt) return;
  const values = state.sent || collect($('fields'), 'arg').values;
  const words = [page.command, shellWord(prompt.name)];
  for (const [key, value] of Object.entries(values)) words.push(shellWord(`${key}=${value}`));
  copy(words.join(' '));
}

// ---- start --------------------------------------------------------------------

async function start() {
  $('search').addEventListener('input', showCatalog);
  $('arguments').addEventListener('submit', render);
  // Ctrl+Enter (or Cmd+Enter) renders from a text area, where Enter is a
  // new line; and answers a question the same way.
  for (const form of [$('arguments'), $('answer')]) {
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
  }
  $('answer').addEventListener('submit', (event) => {
    event.preventDefault();
    answer('accept');
  });
  $('decline').addEventListener('click', () => answer('decline'));
  $('cancel').addEventListener('click', () => answer('cancel'));
  $('copy-test').addEventListener('click', copyAsTest);
  $('copy-command').addEventListener('click', copyAsCommand);
  $('connect').addEventListener('click', () => {
    state.token = $('token').value.trim();
    load().catch((error) => { $('server').textContent = error.message; });
  });
  if (page.auth === 'true') showTokenBox('This server checks tokens: paste a bearer token and connect.');
  try {
    await load();
  } catch (error) {
    if (!(error instanceof RpcError && error.code === -32001)) {
      $('server').textContent = `The server did not answer: ${error.message}`;
    }
  }
}

start();
