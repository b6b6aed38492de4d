// The playground: lists the prompts, builds a form from each one's typed
// arguments, renders it through the MCP endpoint (revision 2026-07-28,
// stateless, as any client), answers the questions a prompt asks, and
// writes the render as a test or a command.
//
// Every text that comes from the server (names, descriptions, messages,
// errors) is set with `textContent` or as an attribute's value, never
// parsed as HTML; the page's policy has the browser refuse HTML sinks
// outright. Names from the server never become element ids or selectors:
// fields are numbered, and found by number.
'use strict';

const REVISION = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META_LANGUAGE = 'io.modelcontextprotocol/acceptLanguage';
const TAGS = 'mcp-prompts/tags';
const MAX_PAGES = 1000;

const page = document.body.dataset;
// The endpoint beside the page, wherever an app mounted both.
const ENDPOINT = new URL(page.endpoint, location.href).href;
const FORMS = new URL(`${location.pathname.replace(/\/$/, '')}/forms.json`, location.href).href;
const $ = (id) => document.getElementById(id);

const state = {
  token: '',
  nextId: 1,
  prompts: [],
  forms: new Map(),
  tools: null,
  current: null,
  // Each render counts; an answer to an earlier one is dropped.
  render: 0,
  // The last render that finished: its arguments, answers and messages.
  done: null,
  // The render under way: its arguments and the answers given so far.
  sending: null,
  // Unanswered questions: the request to send again, and its state.
  pending: null,
  // The language the picker chose; '' for the server's default.
  language: '',
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

/** A plain map of names to values, with no inherited keys. */
function record() {
  return Object.create(null);
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

function authorization() {
  return state.token ? { Authorization: `Bearer ${state.token}` } : {};
}

/** One request to the endpoint, as a 2026-07-28 client sends it. */
async function rpc(method, params = {}, name) {
  const id = state.nextId++;
  const meta = {
    [META_VERSION]: REVISION,
    [META_CAPABILITIES]: { elicitation: { form: {} } },
  };
  if (state.language) meta[META_LANGUAGE] = state.language;
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': REVISION,
    'Mcp-Method': method,
    ...authorization(),
  };
  if (name !== undefined) headers['Mcp-Name'] = name;
  // The browser sends its own languages otherwise, which would disagree
  // with the preference in `_meta`: the header mirrors it, as SEP-2792 has.
  if (state.language) headers['Accept-Language'] = state.language;
  const response = await fetch(ENDPOINT, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status === 401) {
    showTokenBox('This server checks tokens: paste a bearer token and connect.');
    throw new RpcError(-32001, 'a bearer token is needed');
  }
  const type = response.headers.get('content-type') || '';
  let message;
  try {
    message = type.startsWith('text/event-stream') ? fromEvents(text, id) : JSON.parse(text);
  } catch {
    throw new RpcError(-32603, `HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  if (message.error) throw new RpcError(message.error.code, message.error.message, message.error.data);
  if (!response.ok) throw new RpcError(-32603, `HTTP ${response.status}`);
  return message.result;
}

function showTokenBox(why) {
  $('token-box').hidden = false;
  $('server').textContent = why;
}

// ---- the catalog ----------------------------------------------------------

async function load() {
  const prompts = [];
  const seen = new Set();
  let cursor;
  do {
    const listed = await rpc('prompts/list', cursor ? { cursor } : {});
    prompts.push(...listed.prompts);
    cursor = listed.nextCursor;
    // A cursor given twice would go round for ever.
    if (cursor && (seen.has(cursor) || seen.size >= MAX_PAGES)) break;
    seen.add(cursor);
  } while (cursor);
  state.prompts = prompts;
  const formsUrl = state.language ? `${FORMS}?lang=${encodeURIComponent(state.language)}` : FORMS;
  const forms = await fetch(formsUrl, { headers: authorization() });
  if (forms.status === 401) {
    showTokenBox('This server checks tokens: paste a bearer token and connect.');
    throw new RpcError(-32001, 'a bearer token is needed');
  }
  const known = forms.ok ? await forms.json() : { prompts: {}, languages: [] };
  state.forms = new Map(Object.entries(known.prompts));
  showLanguages(known.languages || []);
  // The tools are asked for only where the server declares them: no
  // request the server must refuse.
  const discovered = await rpc('server/discover');
  const declared = discovered.capabilities || {};
  state.tools = declared.tools ? (await rpc('tools/list')).tools : null;
  $('server').textContent = `${prompts.length} prompts`;
  if (state.current && !prompts.some((p) => p.name === state.current.name)) {
    state.current = null;
    $('prompt').hidden = true;
  }
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
      'aria-current': state.current && state.current.name === prompt.name ? 'true' : 'false',
    });
    const icon = iconOf(prompt);
    if (icon) button.append(icon);
    button.append(text);
    button.addEventListener('click', () => choose(prompt.name));
    list.append(el('li', {}, button));
  }
}

// ---- forms ----------------------------------------------------------------------

/** The JSON Schema of a prompt's arguments: the server's, or one built
 *  from the listing when it has none. */
function schemaOf(prompt) {
  const form = state.forms.get(prompt.name);
  if (form) return form.schema;
  const properties = record();
  const required = [];
  for (const arg of prompt.arguments || []) {
    properties[arg.name] = { type: 'string', description: arg.description };
    if (arg.required) required.push(arg.name);
  }
  return { type: 'object', properties, required };
}

/** The values a field offers as a list: `enum`, or `oneOf` titled
 *  constants; each as [value, label]. */
function choicesOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => [String(v), String(v)]);
  if (Array.isArray(schema.oneOf) && schema.oneOf.every((o) => o && 'const' in o)) {
    return schema.oneOf.map((o) => [String(o.const), String(o.title || o.const)]);
  }
  return null;
}

/** Which of the browser's date and time inputs fits a field, if one does:
 *  `date`, `time`, `datetime` (a local date and time) or `instant` (a date
 *  and time sent with the browser's offset, as RFC 3339 asks). */
function dateKindOf(schema) {
  if (schema.format === 'date') return 'date';
  if (schema.format === 'date-time') return 'instant';
  if (schema['x-format'] === 'YYYY-MM-DDTHH:MM:SS') return 'datetime';
  if (schema['x-format'] === 'HH:MM:SS') return 'time';
  return null;
}

/** `+02:00` for a date 120 minutes east of UTC. */
function offsetOf(date) {
  // Whole minutes: a date before time zones had a local mean time's
  // offset, in fractions of a minute.
  const east = -Math.round(date.getTimezoneOffset());
  const hours = String(Math.floor(Math.abs(east) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(east) % 60).padStart(2, '0');
  return `${east < 0 ? '-' : '+'}${hours}:${minutes}`;
}

/** A date or time input's value as the argument's text: seconds always
 *  (inputs leave out `:00`), and an instant's offset. */
function dateText(kind, value) {
  if (kind === 'date') return value;
  const withSeconds = /T\d\d:\d\d$|^\d\d:\d\d$/.test(value) ? `${value}:00` : value;
  if (kind !== 'instant') return withSeconds;
  return withSeconds + offsetOf(new Date(value));
}

/** A form: its numbered fields, each with its name, schema and control. */
class Form {
  constructor(container, prefix) {
    this.container = container;
    this.prefix = prefix;
    this.fields = [];
    container.replaceChildren();
  }

  /** Adds a labelled control for field `name` of `schema`. */
  add(name, schema, required, promptName) {
    const index = this.fields.length;
    const id = `${this.prefix}-${index}`;
    const label = el('label', { for: id, text: name });
    const choices = choicesOf(schema);
    // A choice lists every option, whatever completes it: a select.
    const listed = Boolean(choices);
    const dateKind = dateKindOf(schema);
    let control;
    if (schema.type === 'boolean' || listed) {
      control = el('select', { id });
      const values = schema.type === 'boolean' ? [['true', 'true'], ['false', 'false']] : choices;
      // Nothing chosen until the user chooses: a required one left so is
      // said so, an optional one is not sent.
      if (!required || schema.default === undefined) {
        control.append(el('option', { value: '', text: required ? 'choose…' : '(not sent)' }));
      }
      for (const [value, text] of values) control.append(el('option', { value, text }));
      if (schema.default !== undefined) control.value = String(schema.default);
    } else if (schema.type === 'array' && choicesOf(schema.items || {})) {
      control = el('select', { id, multiple: true });
      for (const [value, text] of choicesOf(schema.items)) {
        control.append(el('option', { value, text }));
      }
    } else if (dateKind) {
      const type = { date: 'date', time: 'time', datetime: 'datetime-local', instant: 'datetime-local' };
      control = el('input', { id, type: type[dateKind], step: dateKind === 'date' ? undefined : '1' });
    } else if (schema['x-format'] === 'JSON') {
      control = el('textarea', { id, rows: 3, spellcheck: 'false' });
    } else if (schema.type === 'integer' || schema.type === 'number') {
      control = el('input', {
        id,
        type: 'number',
        step: schema.type === 'integer' ? '1' : 'any',
        min: schema.minimum,
        max: schema.maximum,
      });
    } else if (schema['x-completes'] || schema.maxLength === 1) {
      control = el('input', { id, type: 'text', autocomplete: 'off', spellcheck: 'false' });
    } else {
      // Free text: prompts take code, notes and documents, several lines.
      control = el('textarea', { id, rows: 2, spellcheck: 'false' });
    }
    if (required) control.setAttribute('aria-required', 'true');
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
      for (const [value] of choices || []) options.append(el('option', { value }));
      control.setAttribute('list', options.id);
      control.addEventListener('input', () => complete(promptName, name, control, options));
    }
    const hints = [];
    if (schema.title && schema.title !== name) hints.push(schema.title);
    if (schema.description) hints.push(schema.description);
    if (schema.minimum !== undefined && schema.maximum !== undefined) {
      hints.push(`from ${schema.minimum} to ${schema.maximum}`);
    }
    if (choices && schema.type !== 'boolean') {
      hints.push(`one of: ${choices.map(([, text]) => text).join(', ')}`);
    }
    hints.push(required ? 'required' : 'optional');
    if (schema.default !== undefined) hints.push(`default: ${schema.default}`);
    if (schema['x-format']) hints.push(`format: ${schema['x-format']}`);
    const hint = el('span', { id: `${id}-hint`, class: 'hint', text: hints.join(' · ') });
    const error = el('span', { id: `${id}-error`, class: 'error', role: 'alert' });
    control.setAttribute('aria-describedby', `${hint.id} ${error.id}`);
    const wrapper = el('div', { class: 'field' }, label, control, hint, error);
    if (options) wrapper.append(options);
    this.container.append(wrapper);
    this.fields.push({ name, schema, required, control, error, dateKind });
  }

  /** The values as argument text (lists as arrays), and the names of the
   *  required fields left empty or holding what is not a number or a whole
   *  date. */
  collect() {
    const values = record();
    const missing = [];
    const invalid = [];
    for (const { name, required, control, dateKind } of this.fields) {
      if (control.validity && control.validity.badInput) {
        invalid.push(name);
        continue;
      }
      if (control.multiple) {
        const chosen = [...control.selectedOptions].map((o) => o.value);
        if (chosen.length) values[name] = chosen;
        else if (required) missing.push(name);
        continue;
      }
      if (control.value === '') {
        if (required) missing.push(name);
        continue;
      }
      values[name] = dateKind ? dateText(dateKind, control.value) : control.value;
    }
    return { values, missing, invalid };
  }

  field(name) {
    return this.fields.find((f) => f.name === name);
  }

  clearErrors() {
    for (const { control, error } of this.fields) {
      error.textContent = '';
      control.removeAttribute('aria-invalid');
    }
  }

  /** Shows `message` next to field `name`; false if there is none. */
  showError(name, message) {
    const field = name === null ? undefined : this.field(name);
    if (!field) return false;
    field.error.textContent = message;
    field.control.setAttribute('aria-invalid', 'true');
    return true;
  }

  /** Marks the empty and the invalid fields; true if there were any. */
  refuse({ missing, invalid }) {
    for (const name of missing) this.showError(name, `${name} is required`);
    for (const name of invalid) {
      const what = this.field(name).dateKind ? 'a complete date or time' : 'a number';
      this.showError(name, `${name} is not ${what}`);
    }
    const first = [...missing, ...invalid][0];
    if (first === undefined) return false;
    this.field(first).control.focus();
    return true;
  }
}

/** Asks the server for completions of what is typed so far; an answer
 *  to an earlier keystroke that arrives late is dropped. */
async function complete(promptName, argument, control, options) {
  const asked = (Number(options.dataset.asked) || 0) + 1;
  options.dataset.asked = String(asked);
  const filled = record();
  for (const [key, value] of Object.entries(state.form.collect().values)) {
    if (key !== argument && typeof value === 'string') filled[key] = value;
  }
  try {
    const result = await rpc('completion/complete', {
      ref: { type: 'ref/prompt', name: promptName },
      argument: { name: argument, value: control.value },
      context: { arguments: filled },
    });
    if (options.dataset.asked !== String(asked)) return;
    options.replaceChildren(...result.completion.values.map((value) => el('option', { value })));
  } catch {
    // Nothing to offer: the field stays free text.
  }
}

function choose(name) {
  const prompt = state.prompts.find((p) => p.name === name);
  if (!prompt) return;
  state.current = prompt;
  state.render += 1;
  state.done = null;
  state.sending = null;
  state.pending = null;
  setBusy(false);
  $('prompt').hidden = false;
  $('prompt-title').textContent = prompt.title || prompt.name;
  $('prompt-name').textContent = prompt.name;
  $('prompt-description').textContent = prompt.description || '';
  $('prompt-tags').replaceChildren(...tagsOf(prompt).map((tag) => el('li', { text: tag })));
  const schema = schemaOf(prompt);
  const form = state.forms.get(prompt.name);
  state.form = new Form($('fields'), 'arg');
  const required = new Set(schema.required || []);
  const properties = schema.properties || {};
  for (const argument of (form && form.order) || Object.keys(properties)) {
    if (!Object.hasOwn(properties, argument)) continue;
    state.form.add(argument, properties[argument], required.has(argument), prompt.name);
  }
  $('form-error').textContent = '';
  $('result').hidden = true;
  $('question').hidden = true;
  // The copies appear with a result, and copy that result.
  $('copies').hidden = true;
  $('copied').value = '';
  showAsTool(prompt, record());
  showCatalog();
  // The keyboard goes on where the work is: the first field, or Render.
  const first = state.form.fields[0];
  (first ? first.control : $('render')).focus();
}

/** How a host that shows only tools gets the prompt, when the server
 *  offers the prompts as tools. */
function showAsTool(prompt, values) {
  const tool = (state.tools || []).find((t) => t.name === 'get_prompt');
  const form = state.forms.get(prompt.name);
  const offered = Boolean(tool) && (!form || form.asTool);
  $('as-tool').hidden = !offered;
  if (!offered) return;
  $('tool-name').textContent = tool.name;
  const call = { name: tool.name, arguments: { name: prompt.name, arguments: values } };
  $('tool-call').textContent = JSON.stringify(call, null, 2);
}

// ---- rendering ----------------------------------------------------------------

/** While a request is out, Render and Answer wait for it. */
function setBusy(busy) {
  for (const button of [$('render'), ...$('answer').querySelectorAll('button')]) {
    button.disabled = busy;
  }
  $('prompt').setAttribute('aria-busy', String(busy));
}

async function render(event) {
  event.preventDefault();
  const prompt = state.current;
  if (!prompt) return;
  state.form.clearErrors();
  $('form-error').textContent = '';
  const collected = state.form.collect();
  if (state.form.refuse(collected)) return;
  state.sending = { arguments: collected.values, answers: [] };
  showAsTool(prompt, collected.values);
  await send({ name: prompt.name, arguments: collected.values });
}

/** Sends `prompts/get`, and shows its messages, its error or its question. */
async function send(params) {
  const render = ++state.render;
  $('question').hidden = true;
  setBusy(true);
  let result;
  try {
    result = await rpc('prompts/get', params, params.name);
  } catch (error) {
    if (render !== state.render) return;
    const name = error.data && typeof error.data.argument === 'string' ? error.data.argument : null;
    if (!state.form.showError(name, error.message)) $('form-error').textContent = error.message;
    $('result').hidden = true;
    return;
  } finally {
    if (render === state.render) setBusy(false);
  }
  // The user chose another prompt, or rendered again, meanwhile.
  if (render !== state.render) return;
  if (result.resultType === 'input_required') {
    ask(params, result);
    return;
  }
  state.pending = null;
  state.done = { ...state.sending, messages: result.messages || [] };
  showMessages(state.done.messages);
}

/** Shows each question the prompt asks, one form each. */
function ask(params, result) {
  const requests = Object.entries(result.inputRequests || {});
  if (!requests.length || requests.some(([, r]) => !r || r.method !== 'elicitation/create')) {
    $('form-error').textContent = 'The prompt asks for something this page cannot answer.';
    return;
  }
  const container = $('answer-fields');
  container.replaceChildren();
  const forms = requests.map(([key, request], index) => {
    const schema = request.params.requestedSchema || { properties: {} };
    const fieldset = el('fieldset', {}, el('legend', { text: request.params.message || '' }));
    const holder = el('div');
    fieldset.append(holder);
    container.append(fieldset);
    const form = new Form(holder, `ask${index}`);
    const required = new Set(schema.required || []);
    for (const [name, property] of Object.entries(schema.properties || {})) {
      form.add(name, property, required.has(name), null);
    }
    return { key, schema, form };
  });
  state.pending = { params, forms, requestState: result.requestState };
  $('question-message').textContent = requests.length === 1
    ? requests[0][1].params.message || ''
    : `${requests.length} questions`;
  $('question').hidden = false;
  const first = forms[0].form.fields[0];
  (first ? first.control : $('answer').querySelector('button')).focus();
}

/** A form's values as the JSON its schema asks for. */
function typed(values, schema) {
  const content = record();
  const properties = schema.properties || {};
  for (const [name, value] of Object.entries(values)) {
    const type = (Object.hasOwn(properties, name) && properties[name].type) || 'string';
    if (type === 'boolean') content[name] = value === 'true';
    else if (type === 'integer' || type === 'number') content[name] = Number(value);
    else content[name] = value;
  }
  return content;
}

async function answer(action) {
  const pending = state.pending;
  if (!pending) return;
  const responses = record();
  for (const { key, schema, form } of pending.forms) {
    const response = { action };
    if (action === 'accept') {
      form.clearErrors();
      const collected = form.collect();
      if (form.refuse(collected)) return;
      response.content = typed(collected.values, schema);
      for (const [field, value] of Object.entries(response.content)) {
        state.sending.answers.push([field, value]);
      }
    }
    responses[key] = response;
  }
  await send({
    ...pending.params,
    inputResponses: responses,
    requestState: pending.requestState,
  });
  // The question is gone: the keyboard goes on to what it gave.
  if (!$('result').hidden) $('messages-heading').focus();
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
  const list = $('messages');
  list.replaceChildren(...messages.map((message) => el('li', { class: 'message', 'data-role': String(message.role) },
    el('p', { class: 'role', text: String(message.role) }),
    contentNode(message.content || {}))));
  $('result').hidden = false;
  $('copies').hidden = false;
}

// ---- copies -------------------------------------------------------------------

/** `text` as a Rust string literal; characters that change the direction
 *  of text, which rustc refuses raw, are escaped. */
function rustString(text) {
  let out = '"';
  for (const char of String(text)) {
    const code = char.codePointAt(0);
    const bidi = (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)
      || code === 0x200e || code === 0x200f || code === 0x061c;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || bidi) out += `\\u{${code.toString(16)}}`;
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

/** What to copy: the last render of the prompt shown, or its form as filled. */
function copied() {
  return state.done || { arguments: state.form.collect().values, answers: [], messages: null };
}

/** An answer's value as text for `--answer`, and as Rust for the test. */
function answerText(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function copyAsTest() {
  const prompt = state.current;
  if (!prompt) return;
  const { arguments: values, answers, messages } = copied();
  const pairs = Object.entries(values)
    .filter(([, v]) => typeof v === 'string')
    .map(([k, v]) => `(${rustString(k)}, ${rustString(v)})`);
  let name = prompt.name.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase();
  if (!/^[a-z_]/.test(name)) name = `prompt_${name}`;
  const args = pairs.length ? `[${pairs.join(', ')}]` : '[] as [(&str, &str); 0]';
  const lines = [
    '#[tokio::test]',
    `async fn ${name}_renders() {`,
    '    let service = service(); // your Server::new(..).build()',
    '    let client = mcp_prompts::testing::Client::new(&service)',
  ];
  if (answers.length) {
    const given = answers.map(([field, value]) => typeof value === 'string'
      ? `(${rustString(field)}, serde_json::json!(${rustString(value)}))`
      : `(${rustString(field)}, serde_json::json!(${answerText(value)}))`);
    lines.push(`        .answering(mcp_prompts::testing::Answers::fields([${given.join(', ')}]))`);
  }
  lines[lines.length - 1] += ';';
  lines.push(
    '    let result = client',
    `        .get((${rustString(prompt.name)}, ${args}))`,
    '        .await',
    '        .unwrap();',
  );
  if (messages) {
    const texts = messages
      .filter((m) => m.content && m.content.type === 'text')
      .map((m) => `            ${rustString(m.content.text)},`);
    if (texts.length) {
      lines.push('    assert_eq!(', '        result.texts(),', '        [', ...texts, '        ]', '    );');
    } else {
      lines.push('    assert!(result.texts().is_empty());');
    }
  }
  lines.push('}');
  copy(lines.join('\n'));
}

function copyAsCommand() {
  const prompt = state.current;
  if (!prompt) return;
  const { arguments: values, answers } = copied();
  const words = [page.command, shellWord(prompt.name)];
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string') words.push(shellWord(`${key}=${value}`));
  }
  for (const [field, value] of answers) {
    words.push('--answer', shellWord(`${field}=${answerText(value)}`));
  }
  copy(words.join(' '));
}

/** The picker's languages: the server's default first, as it names them. */
function showLanguages(languages) {
  const picker = $('language');
  picker.hidden = languages.length < 2;
  $('language-label').hidden = picker.hidden;
  const shown = Array.from(picker.options, (option, at) => (at === 0 ? languages[0] : option.value));
  if (shown.join() === languages.join()) return;
  picker.replaceChildren(...languages.map((tag, at) => el('option', {
    value: at === 0 ? '' : tag,
    text: at === 0 ? `${tag} (default)` : tag,
    selected: (at === 0 ? '' : tag) === state.language,
  })));
}

// ---- start --------------------------------------------------------------------

async function start() {
  $('search').addEventListener('input', showCatalog);
  $('language').addEventListener('change', () => {
    state.language = $('language').value;
    load()
      .then(() => { if (state.current) choose(state.current.name); })
      .catch((error) => { $('server').textContent = error.message; });
  });
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
  // A command only where the server named one that renders its prompts.
  if (page.command) $('copy-command').addEventListener('click', copyAsCommand);
  else $('copy-command').remove();
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
