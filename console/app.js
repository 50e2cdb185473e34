// The scrape-agent console: starts runs, follows their events over EventSource, shows the
// answer. Everything a page or a model wrote is untrusted: it reaches the document only as
// text (textContent, text nodes), never as markup, and links only when they are http(s).
'use strict';

const KEY_STORAGE = 'scrape-agent.api-key';
const EVENT_TYPES = ['init', 'url_start', 'step', 'url_complete', 'complete', 'error'];
const SESSIONS_PAGE = 20;

const byId = (id) => document.getElementById(id);

/** Builds an element; `attrs` are properties (className, href, …) or `data-*` attributes. */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (name.startsWith('data-') || name.startsWith('aria-') || name === 'role') {
      node.setAttribute(name, String(value));
    } else {
      node[name] = value;
    }
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const state = {
  key: sessionStorage.getItem(KEY_STORAGE) || '',
  needsKey: false,
  sessionsCursor: null,
  run: null,
};

// ---- API ---------------------------------------------------------------------------------

async function api(path, options = {}) {
  const headers = Object.assign({}, options.headers);
  if (state.key) headers.Authorization = `Bearer ${state.key}`;
  const response = await fetch(path, Object.assign({}, options, { headers }));
  if (response.status === 401) askForKey(state.key ? 'The key was refused.' : '');
  return response;
}

/** The `message` of the API's JSON error body, or the status line. */
async function errorText(response) {
  try {
    const body = await response.json();
    if (body && body.error) return `${body.error.code}: ${body.error.message}`;
  } catch (_) { /* not JSON */ }
  return `HTTP ${response.status}`;
}

function askForKey(why) {
  state.needsKey = true;
  byId('key-panel').hidden = false;
  byId('key-status').textContent = why;
}

// ---- Sessions list -----------------------------------------------------------------------

async function loadSessions(more) {
  const query = new URLSearchParams({ limit: String(SESSIONS_PAGE) });
  if (more && state.sessionsCursor) query.set('cursor', state.sessionsCursor);
  let response;
  try {
    response = await api(`/api/scrape?${query}`);
  } catch (err) {
    byId('key-status').textContent = `Cannot reach the server: ${err.message}`;
    return;
  }
  if (!response.ok) return;
  if (state.needsKey) {
    byId('key-status').textContent = 'Key accepted.';
  }
  const page = await response.json();
  const list = byId('sessions');
  if (!more) list.replaceChildren();
  for (const session of page.sessions || []) list.append(sessionItem(session));
  state.sessionsCursor = page.next_cursor || null;
  byId('more-sessions').hidden = !state.sessionsCursor;
  markCurrentSession();
}

function sessionItem(session) {
  const request = session.request || {};
  const urls = Array.isArray(request.urls) ? request.urls : [];
  const when = session.created_at ? new Date(session.created_at).toLocaleString() : '';
  const link = el('a', { href: `#/sessions/${encodeURIComponent(session.id)}` },
    el('span', { className: 'badge', 'data-status': session.status }, session.status),
    ' ',
    el('span', { className: 'session-what' }, request.instructions || session.id),
    el('span', { className: 'session-meta' },
      `${urls[0] || ''}${urls.length > 1 ? ` +${urls.length - 1}` : ''} · ${when}`));
  return el('li', { 'data-session': session.id }, link);
}

function markCurrentSession() {
  const current = state.run && state.run.id;
  for (const item of byId('sessions').children) {
    item.classList.toggle('current', item.dataset.session === current);
  }
}

// ---- Starting a run ----------------------------------------------------------------------

/** The form's crawl object (see README, A whole site): empty fields are left to the server. */
function crawlOptions() {
  const crawl = { sitemap: byId('crawl-sitemap').value };
  const number = (id) => byId(id).value.trim();
  if (number('crawl-max-pages')) crawl.max_pages = Number(number('crawl-max-pages'));
  if (number('crawl-max-depth')) crawl.max_depth = Number(number('crawl-max-depth'));
  const lines = (id) => byId(id).value.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines('crawl-include').length) crawl.include = lines('crawl-include');
  if (lines('crawl-exclude').length) crawl.exclude = lines('crawl-exclude');
  return crawl;
}

async function startRun(event) {
  event.preventDefault();
  const status = byId('form-status');
  status.textContent = '';
  const urls = byId('urls').value.split('\n').map((u) => u.trim()).filter(Boolean);
  const body = {
    urls,
    instructions: byId('instructions').value.trim(),
    output_format: byId('output-format').value,
    planner: byId('planner').value,
  };
  const maxSteps = byId('max-steps').value.trim();
  if (maxSteps) body.max_steps = Number(maxSteps);
  if (byId('crawl-on').checked) body.crawl = crawlOptions();
  const plan = byId('tool-plan').value.trim();
  if (plan) {
    try {
      body.tools = JSON.parse(plan);
    } catch (err) {
      status.textContent = `The tool plan is not valid JSON: ${err.message}`;
      return;
    }
  }
  const button = byId('start-run');
  button.disabled = true;
  try {
    const response = await api('/api/scrape', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 202) {
      status.textContent = await errorText(response);
      return;
    }
    const started = await response.json();
    location.hash = `#/sessions/${encodeURIComponent(started.session_id)}`;
    loadSessions(false);
  } catch (err) {
    status.textContent = `Cannot reach the server: ${err.message}`;
  } finally {
    button.disabled = false;
  }
}

// ---- Following a run ---------------------------------------------------------------------

function route() {
  const match = /^#\/sessions\/(.+)$/.exec(location.hash);
  if (match) {
    openSession(decodeURIComponent(match[1]));
  } else {
    closeRun();
    byId('run').hidden = true;
    markCurrentSession();
  }
}

function closeRun() {
  const run = state.run;
  if (!run) return;
  run.closed = true;
  if (run.source) run.source.close();
  clearTimeout(run.retryTimer);
  state.run = null;
}

async function openSession(id) {
  if (state.run && state.run.id === id) return;
  closeRun();
  const run = {
    id,
    source: null,
    seen: new Set(),
    delivered: 0,
    lastSeq: 0,
    groups: new Map(),
    urls: [],
    done: false,
    closed: false,
    retries: 0,
    retryTimer: null,
    complete: null,
  };
  state.run = run;
  resetRunView(id);
  markCurrentSession();
  const response = await api(`/api/scrape/${encodeURIComponent(id)}`).catch(() => null);
  if (run.closed) return;
  if (response && response.status === 404) {
    setStatus('not found');
    byId('connection').textContent = `There is no session ${id}.`;
    return;
  }
  if (response && response.ok) {
    const session = await response.json();
    const request = session.request || {};
    if (request.instructions) showRequest(request);
    setStatus(session.status);
  }
  connect(run);
}

function resetRunView(id) {
  byId('run').hidden = false;
  byId('run-id').textContent = id;
  byId('run-link').href = `#/sessions/${encodeURIComponent(id)}`;
  byId('run-request').textContent = '';
  byId('connection').textContent = 'Connecting…';
  byId('timeline').replaceChildren();
  byId('errors').replaceChildren();
  byId('answer').hidden = true;
  byId('progress-bar').value = 0;
  byId('progress-text').textContent = '';
  byId('cancel-run').hidden = true;
  setStatus('');
}

function showRequest(request) {
  const parts = [`“${request.instructions}”`];
  if (request.output_format) parts.push(`format ${request.output_format}`);
  if (request.planner) parts.push(`planner ${request.planner}`);
  if (request.max_steps) parts.push(`max ${request.max_steps} steps`);
  byId('run-request').textContent = parts.join(' · ');
}

function setStatus(status) {
  const badge = byId('run-status');
  badge.textContent = status;
  badge.dataset.status = status;
  byId('cancel-run').hidden = status !== 'running' && status !== 'cancelling';
}

/** Opens the event stream after the last event seen. EventSource resends `Last-Event-ID`
 * by itself when it reconnects; when it gives up (the server was gone), we open a new one
 * that asks for the events after the last one we have. */
function connect(run) {
  const query = new URLSearchParams();
  if (state.key) query.set('access_token', state.key);
  if (run.lastSeq > 0) query.set('last_event_id', String(run.lastSeq));
  const qs = query.toString();
  const source = new EventSource(`/api/scrape/${encodeURIComponent(run.id)}/events${qs ? `?${qs}` : ''}`);
  run.source = source;
  source.onopen = () => {
    run.retries = 0;
    byId('connection').textContent = run.done ? '' : 'Live.';
  };
  source.onerror = () => {
    if (run.done || run.closed) {
      source.close();
      return;
    }
    if (source.readyState === EventSource.CLOSED) {
      run.retries += 1;
      const delay = Math.min(500 * 2 ** run.retries, 10000);
      byId('connection').textContent = `Connection lost; retrying in ${Math.round(delay / 1000)} s…`;
      run.retryTimer = setTimeout(() => reconnect(run), delay);
    } else {
      byId('connection').textContent = 'Connection lost; reconnecting…';
    }
  };
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (message) => receive(run, message));
  }
}

/** Reconnects after the browser gave up, unless the server says it never will work: a key
 * it refuses (the key field opens) or a session it no longer has. */
async function reconnect(run) {
  if (run.closed) return;
  let response = null;
  try {
    response = await api(`/api/scrape/${encodeURIComponent(run.id)}`);
  } catch (_) { /* still unreachable: try the stream anyway, it retries */ }
  if (run.closed) return;
  if (response && (response.status === 401 || response.status === 404)) {
    byId('connection').textContent = response.status === 401
      ? 'The server wants an API key to follow this run.'
      : 'The session is gone.';
    return;
  }
  connect(run);
}

function receive(run, message) {
  if (run.closed) return;
  run.delivered += 1;
  const seq = Number(message.lastEventId);
  // A replay after a reconnect or a reload may repeat events we have: each id is shown once.
  if (!Number.isFinite(seq) || run.seen.has(seq)) return;
  let envelope;
  try {
    envelope = JSON.parse(message.data);
  } catch (_) {
    return;
  }
  run.seen.add(seq);
  run.lastSeq = Math.max(run.lastSeq, seq);
  const data = envelope.data || {};
  switch (envelope.type) {
    case 'init': onInit(run, data); break;
    case 'url_start': onUrlStart(run, data); break;
    case 'step': onStep(run, seq, data); break;
    case 'url_complete': onUrlComplete(run, data); break;
    case 'error': onError(run, seq, data); break;
    case 'complete': onComplete(run, data); break;
    default: break;
  }
  updateProgress(run);
}

function onInit(run, data) {
  run.urls = data.urls || [];
  for (const url of run.urls) urlGroup(run, url);
  showRequest(data);
  if (!run.done) setStatus('running');
}

function onUrlStart(run, data) {
  const group = urlGroup(run, data.url);
  group.status = 'running';
  renderGroupHead(group);
}

function onUrlComplete(run, data) {
  const group = urlGroup(run, data.url);
  group.status = data.status;
  group.items = data.items;
  group.durationMs = data.duration_ms;
  renderGroupHead(group);
}

function onStep(run, seq, step) {
  const group = urlGroup(run, step.url || '(run)');
  group.steps += 1;
  if (typeof step.reward === 'number') group.reward += step.reward;
  const details = step.extracted_data || {};
  if (step.action === 'tool_call' && step.status !== 'running') {
    if (details.success) group.toolsOk += 1; else group.toolsFailed += 1;
  }
  const row = stepRow(seq, step);
  const list = actionList(group, step.action || 'step');
  if (step.action === 'agent_decision') {
    // A streamed decision grows in place: its drafts and its final form share one row.
    const pending = group.pendingDecision;
    if (pending) {
      row.dataset.drafts = String(Number(pending.dataset.drafts || '0') + 1);
      pending.replaceWith(row);
    } else {
      list.append(row);
    }
    group.pendingDecision = step.status === 'running' ? row : null;
  } else {
    list.append(row);
  }
  renderGroupHead(group);
}

function onError(run, seq, data) {
  const group = urlGroup(run, data.url || '(run)');
  const row = el('li', { className: 'step error', 'data-seq': seq, 'data-status': 'failed' },
    el('div', { className: 'step-head' },
      el('span', { className: 'badge', 'data-status': 'failed' }, data.code || 'error'),
      el('span', { className: 'message' }, data.message || ''),
      data.retryable ? el('span', { className: 'muted' }, 'retryable') : null));
  actionList(group, 'error').append(row);
  byId('errors').append(el('li', {},
    el('strong', {}, data.code || 'error'), ' ', data.url ? `${data.url}: ` : '', data.message || ''));
}

function onComplete(run, data) {
  run.done = true;
  run.complete = data;
  if (run.source) run.source.close();
  setStatus(data.status);
  const seconds = typeof data.duration_ms === 'number' ? ` in ${(data.duration_ms / 1000).toFixed(1)} s` : '';
  byId('connection').textContent = `Finished${seconds}.`;
  for (const group of run.groups.values()) {
    if (group.status === 'running' || group.status === 'waiting') {
      group.status = data.status === 'cancelled' ? 'cancelled' : group.status;
      renderGroupHead(group);
    }
  }
  showAnswer(run, data);
  loadSessions(false);
}

// ---- Timeline ----------------------------------------------------------------------------

function urlGroup(run, url) {
  let group = run.groups.get(url);
  if (group) return group;
  const head = el('summary', { className: 'url-head' });
  const section = el('details', { className: 'url-group', open: true, 'data-url': url }, head);
  group = {
    url, section, head, actions: new Map(), status: 'waiting', steps: 0,
    toolsOk: 0, toolsFailed: 0, reward: 0, items: null, durationMs: null, pendingDecision: null,
  };
  run.groups.set(url, group);
  byId('timeline').append(section);
  renderGroupHead(group);
  return group;
}

/** `1 step`, `2 steps`, `0 steps`. */
function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function renderGroupHead(group) {
  const facts = [plural(group.steps, 'step')];
  if (group.toolsOk || group.toolsFailed) {
    facts.push(`tools ${group.toolsOk} ok${group.toolsFailed ? `, ${group.toolsFailed} failed` : ''}`);
  }
  facts.push(`reward ${formatReward(group.reward)}`);
  if (group.items !== null && group.items !== undefined) facts.push(plural(group.items, 'item'));
  if (group.durationMs !== null && group.durationMs !== undefined) facts.push(`${group.durationMs} ms`);
  group.section.dataset.status = group.status;
  group.head.replaceChildren(
    el('span', { className: 'badge', 'data-status': group.status }, group.status),
    el('span', { className: 'url' }, group.url),
    el('span', { className: 'muted' }, facts.join(' · ')));
}

/** The list of one action's rows inside a URL's group; groups appear in the order their
 * first step arrived. */
function actionList(group, action) {
  let entry = group.actions.get(action);
  if (!entry) {
    const summary = el('summary', {});
    const list = el('ol', { className: 'steps' });
    const details = el('details', { className: 'action-group', open: true, 'data-action': action }, summary, list);
    entry = { details, summary, list };
    group.actions.set(action, entry);
    group.section.append(details);
  }
  queueMicrotask(() => {
    entry.summary.textContent = `${action} (${entry.list.children.length})`;
  });
  return entry.list;
}

function formatReward(reward) {
  const rounded = Math.round(reward * 1000) / 1000;
  return rounded > 0 ? `+${rounded}` : String(rounded);
}

function stepRow(seq, step) {
  const details = step.extracted_data || {};
  const head = el('div', { className: 'step-head' },
    el('span', { className: 'step-number' }, `#${step.step_number}`),
    el('span', { className: 'badge', 'data-status': step.status }, step.status),
    el('span', { className: 'message' }, step.message || ''),
    typeof step.reward === 'number' && step.reward !== 0
      ? el('span', { className: `reward ${step.reward < 0 ? 'negative' : ''}` }, formatReward(step.reward)) : null,
    typeof step.duration_ms === 'number' ? el('span', { className: 'muted' }, `${step.duration_ms} ms`) : null);
  let body = null;
  if (step.action === 'tool_call') body = toolPanel(details);
  else if (step.action === 'agent_decision') body = decisionPanel(details);
  else body = factsPanel(details);
  const failed = step.status === 'failed' || (step.action === 'tool_call' && details.success === false);
  return el('li', {
    className: `step${failed ? ' error' : ''}`, 'data-seq': seq, 'data-status': step.status,
  }, head, body);
}

function json(value) {
  return JSON.stringify(value, null, 2);
}

function toolPanel(call) {
  const list = el('dl', { className: 'tool-panel' });
  const add = (name, value, className) => {
    if (value === undefined || value === null || value === '') return;
    list.append(el('dt', {}, name), el('dd', { className: className || '' }, value));
  };
  add('Tool', el('code', {}, call.tool_name || call.tool || '?'));
  add('Success', call.success === true ? 'yes' : call.success === false ? 'no' : null,
    call.success === false ? 'failed' : 'ok');
  add('Duration', typeof call.duration_ms === 'number' ? `${call.duration_ms} ms` : null);
  add('Items', call.items);
  if (call.parameters !== undefined) add('Parameters', el('pre', {}, json(call.parameters)));
  add('Result preview', call.result_preview ? el('pre', {}, call.result_preview) : null);
  add('Error', call.error, 'failed');
  if (call.reasoning) add('Reasoning', call.reasoning);
  if (call.evidence) add('Evidence', el('details', {}, el('summary', {}, 'how it decided'), el('pre', {}, json(call.evidence))));
  return list;
}

function decisionPanel(decision) {
  const wrap = el('div', { className: 'decision' });
  const facts = [];
  if (decision.planner) facts.push(`planner ${decision.planner}`);
  if (decision.round !== undefined) facts.push(`round ${decision.round}`);
  if (decision.partial) facts.push('choosing…');
  if (decision.done) facts.push('done');
  if (facts.length) wrap.append(el('p', { className: 'muted' }, facts.join(' · ')));
  const calls = Array.isArray(decision.tool_calls) ? decision.tool_calls : [];
  const list = el('ol', { className: 'planned' });
  for (const call of calls) {
    let params = null;
    if (call.params !== undefined && call.params !== null) params = el('pre', {}, json(call.params));
    else if (call.arguments) {
      const more = call.arguments_chars ? ` … (${call.arguments_chars} characters)` : '';
      params = el('pre', { className: 'draft' }, call.arguments + more);
    }
    list.append(el('li', {},
      el('code', {}, call.tool || '…'),
      call.reasoning ? el('span', { className: 'reasoning' }, ` — ${call.reasoning}`) : null,
      params));
  }
  if (calls.length) wrap.append(list);
  for (const key of Object.keys(decision)) {
    if (!['planner', 'round', 'partial', 'done', 'tool_calls'].includes(key)) {
      wrap.append(factsPanel({ [key]: decision[key] }));
    }
  }
  return wrap;
}

/** The structured fields of other steps (fetch, navigate, output, fallback) as a list. */
function factsPanel(details) {
  const keys = Object.keys(details || {});
  if (!keys.length) return null;
  const list = el('dl', { className: 'facts' });
  for (const key of keys) {
    const value = details[key];
    if (value === null || value === undefined) continue;
    const shown = typeof value === 'object' ? el('pre', {}, json(value)) : String(value);
    list.append(el('dt', {}, key), el('dd', {}, shown));
  }
  return list;
}

function updateProgress(run) {
  const total = run.urls.length || run.groups.size;
  let finished = 0;
  for (const group of run.groups.values()) {
    if (group.status === 'completed' || group.status === 'failed') finished += 1;
  }
  const bar = byId('progress-bar');
  bar.max = Math.max(total, 1);
  bar.value = finished;
  byId('progress-text').textContent = `${finished} / ${plural(total, 'URL')}`;
}

// ---- The answer --------------------------------------------------------------------------

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Records of a list answer: objects as they are, other values under `value`. */
function recordsOf(value) {
  if (!Array.isArray(value)) return null;
  return value.map((item) => (isObject(item) ? item : { value: item }));
}

function columnsOf(records) {
  const columns = [];
  for (const record of records) {
    for (const key of Object.keys(record)) if (!columns.includes(key)) columns.push(key);
  }
  return columns;
}

function textOf(answer) {
  if (!isObject(answer)) return null;
  if (typeof answer.markdown === 'string' && answer.markdown) return answer.markdown;
  if (typeof answer.text === 'string' && answer.text) return answer.text;
  return null;
}

function cellText(value) {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function cellNode(value) {
  const text = cellText(value);
  if (typeof value === 'string' && /^https?:\/\//i.test(value)) {
    return el('a', { href: value, rel: 'noopener noreferrer nofollow', target: '_blank' }, text);
  }
  return text;
}

function compareCells(a, b) {
  const empty = (v) => v === null || v === undefined || v === '';
  if (empty(a) && empty(b)) return 0;
  if (empty(a)) return 1;
  if (empty(b)) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return cellText(a).localeCompare(cellText(b), undefined, { numeric: true, sensitivity: 'base' });
}

/** A table of records whose column headers sort it (ascending, then descending). */
function recordsTable(url, records) {
  const columns = columnsOf(records);
  const table = el('table', { className: 'records', 'data-url': url });
  table.append(el('caption', {}, `${url} — ${plural(records.length, 'record')}`));
  const headRow = el('tr', {});
  const body = el('tbody', {});
  const sort = { column: null, direction: 'none' };
  const fill = (rows) => {
    body.replaceChildren(...rows.map((record) =>
      el('tr', {}, ...columns.map((column) => el('td', {}, cellNode(record[column]))))));
  };
  for (const column of columns) {
    const header = el('th', { scope: 'col', 'aria-sort': 'none', 'data-column': column });
    const button = el('button', { type: 'button', className: 'sort' }, column);
    button.addEventListener('click', () => {
      sort.direction = sort.column === column && sort.direction === 'ascending' ? 'descending' : 'ascending';
      sort.column = column;
      for (const th of headRow.children) th.setAttribute('aria-sort', 'none');
      header.setAttribute('aria-sort', sort.direction);
      const sign = sort.direction === 'ascending' ? 1 : -1;
      fill(records.slice().sort((a, b) => sign * compareCells(a[column], b[column])));
    });
    header.append(button);
    headRow.append(header);
  }
  table.append(el('thead', {}, headRow), body);
  fill(records);
  return table;
}

function keyValueTable(url, object) {
  const table = el('table', { className: 'fields', 'data-url': url });
  table.append(el('caption', {}, url));
  const body = el('tbody', {});
  for (const [key, value] of Object.entries(object)) {
    body.append(el('tr', {}, el('th', { scope: 'row' }, key), el('td', {}, cellNode(value))));
  }
  table.append(body);
  return table;
}

function showAnswer(run, complete) {
  const answers = complete.extracted_data || {};
  const tableView = byId('view-table');
  const textView = byId('view-text');
  tableView.replaceChildren();
  textView.replaceChildren();
  let lists = 0;
  let texts = 0;
  const emptyFields = complete.empty_fields || {};
  for (const [url, answer] of Object.entries(answers)) {
    // Fields the request named that the page had nothing for: said, not dropped silently.
    const empty = emptyFields[url];
    if (Array.isArray(empty) && empty.length) {
      tableView.append(el('p', { className: 'empty-fields muted', 'data-url': url },
        `${url}: nothing found for ${empty.join(', ')}`));
    }
    const records = recordsOf(answer);
    if (records) {
      lists += 1;
      tableView.append(records.length ? recordsTable(url, records) : el('p', { className: 'muted' }, `${url}: no records`));
    } else if (isObject(answer)) {
      const text = textOf(answer);
      if (text) {
        texts += 1;
        textView.append(el('h4', {}, url), el('div', { className: 'document' }, text));
      }
      tableView.append(keyValueTable(url, answer));
    } else {
      tableView.append(el('p', { className: 'muted' }, `${url}: no answer`));
    }
  }
  if (typeof complete.output === 'string' && complete.output) {
    textView.append(el('h4', {}, `Rendered output (${complete.output_format})`), el('pre', { className: 'output' }, complete.output));
  }
  byId('answer-json').textContent = json(answers);
  const metrics = complete.metrics || {};
  byId('answer-summary').textContent = [
    complete.status,
    plural(complete.urls_processed ?? 0, 'URL'),
    `${complete.urls_failed ?? 0} failed`,
    plural(complete.total_steps ?? 0, 'step'),
    `reward ${formatReward(complete.total_reward || 0)}`,
    metrics.tool_calls !== undefined ? plural(metrics.tool_calls, 'tool call') : null,
  ].filter(Boolean).join(' · ');
  byId('answer').hidden = false;
  selectTab(lists || !texts ? 'table' : 'text');
}

function selectTab(name) {
  for (const tab of ['table', 'text', 'json']) {
    byId(`tab-${tab}`).setAttribute('aria-selected', String(tab === name));
    byId(`view-${tab}`).hidden = tab !== name;
  }
}

// ---- Copy and downloads ------------------------------------------------------------------

/** Like the server's CSV: a cell a spreadsheet would run as a formula starts with `'`. */
function csvCell(value) {
  let text = cellText(value);
  if (/^[=+\-@\t\r\0]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One table of every URL's records (with the URL as first column when there are several). */
function flatRows(answers) {
  const entries = Object.entries(answers);
  const several = entries.length > 1;
  const rows = [];
  for (const [url, answer] of entries) {
    const records = recordsOf(answer) || (isObject(answer) ? [answer] : []);
    for (const record of records) rows.push(several ? Object.assign({ url }, record) : record);
  }
  return rows;
}

function toCsv(answers) {
  const rows = flatRows(answers);
  const columns = columnsOf(rows);
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function markdownCell(value) {
  return cellText(value).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function markdownTable(records) {
  const columns = columnsOf(records);
  if (!columns.length) return '';
  const lines = [
    `| ${columns.map(markdownCell).join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...records.map((r) => `| ${columns.map((c) => markdownCell(r[c])).join(' | ')} |`),
  ];
  return lines.join('\n');
}

function toMarkdown(answers) {
  const parts = [];
  for (const [url, answer] of Object.entries(answers)) {
    parts.push(`## ${url}`);
    const records = recordsOf(answer);
    const text = textOf(answer);
    if (records) parts.push(records.length ? markdownTable(records) : '_no records_');
    else if (text) parts.push(text);
    else if (isObject(answer)) parts.push(markdownTable(Object.entries(answer).map(([field, value]) => ({ field, value }))));
    else parts.push('_no answer_');
  }
  return `${parts.join('\n\n')}\n`;
}

function download(name, type, text) {
  const href = URL.createObjectURL(new Blob([text], { type }));
  const link = el('a', { href, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10000);
}

function currentAnswers() {
  return (state.run && state.run.complete && state.run.complete.extracted_data) || {};
}

async function copyAnswer() {
  const status = byId('copy-status');
  try {
    await navigator.clipboard.writeText(json(currentAnswers()));
    status.textContent = 'Copied.';
  } catch (_) {
    status.textContent = 'The browser refused the clipboard; select the JSON view instead.';
  }
}

async function cancelRun() {
  const run = state.run;
  if (!run) return;
  const button = byId('cancel-run');
  button.disabled = true;
  try {
    const response = await api(`/api/scrape/${encodeURIComponent(run.id)}`, { method: 'DELETE' });
    if (response.ok) {
      if (!run.done) setStatus('cancelling');
    } else {
      byId('connection').textContent = await errorText(response);
    }
  } finally {
    button.disabled = false;
  }
}

// ---- Wiring ------------------------------------------------------------------------------

function init() {
  byId('run-form').addEventListener('submit', startRun);
  byId('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    state.key = byId('api-key').value.trim();
    sessionStorage.setItem(KEY_STORAGE, state.key);
    byId('key-status').textContent = 'Checking…';
    loadSessions(false);
    if (state.run) {
      const id = state.run.id;
      closeRun();
      openSession(id);
    }
  });
  byId('refresh-sessions').addEventListener('click', () => loadSessions(false));
  byId('more-sessions').addEventListener('click', () => loadSessions(true));
  byId('cancel-run').addEventListener('click', cancelRun);
  for (const tab of ['table', 'text', 'json']) {
    byId(`tab-${tab}`).addEventListener('click', () => selectTab(tab));
  }
  byId('copy-answer').addEventListener('click', copyAnswer);
  const stamp = () => (state.run ? state.run.id : 'answer');
  byId('download-json').addEventListener('click', () =>
    download(`${stamp()}.json`, 'application/json', `${json(currentAnswers())}\n`));
  byId('download-csv').addEventListener('click', () =>
    download(`${stamp()}.csv`, 'text/csv', toCsv(currentAnswers())));
  byId('download-md').addEventListener('click', () =>
    download(`${stamp()}.md`, 'text/markdown', toMarkdown(currentAnswers())));
  window.addEventListener('hashchange', route);
  loadSessions(false);
  route();
}

init();
