/**
 * The viewer's page: one HTML file, one stylesheet, one script, all served by the viewer
 * itself (no CDN, works offline). Every text from results is set with textContent, never
 * parsed as HTML.
 */
export const VIEW_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>spiralbench view</title>
<link rel="stylesheet" href="/view.css">
</head>
<body>
<header><h1>spiralbench view</h1><span id="status" role="status"></span></header>
<main>
<nav aria-label="sweeps"><h2>Sweeps</h2><ul id="sweeps"></ul>
<h2>Diff</h2>
<form id="diff">
<label>A <select name="a" id="diff-a"></select></label>
<label>arm <select name="arm_a" id="diff-arm-a"><option value="">every arm</option></select></label>
<label>B <select name="b" id="diff-b"></select></label>
<label>arm <select name="arm_b" id="diff-arm-b"><option value="">every arm</option></select></label>
<button type="submit">Compare</button>
</form>
</nav>
<section id="sweep" aria-label="sweep"></section>
</main>
<dialog id="transcripts" aria-label="transcripts"><form method="dialog"><button>Close (Esc)</button></form><div id="transcript-panes"></div></dialog>
<script src="/view.js"></script>
</body>
</html>
`;

export const VIEW_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --soft: #f6f8fa;
  --good: #1a7f37; --bad: #b42318; --harm: #8250df; --esc: #9a6700; --focus: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; align-items: baseline; gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.1rem; margin: 0; } h2 { font-size: .95rem; margin: 1rem 0 .4rem; } h3 { font-size: .9rem; margin: .8rem 0 .3rem; }
#status { color: var(--muted); }
main { display: grid; grid-template-columns: 18rem 1fr; min-height: calc(100vh - 3rem); }
nav { border-right: 1px solid var(--line); padding: 0 1rem 1rem; background: var(--soft); }
nav ul { list-style: none; padding: 0; margin: 0; }
nav li button { width: 100%; text-align: left; background: none; border: 1px solid transparent; border-radius: 6px; padding: .35rem .5rem; cursor: pointer; font: inherit; color: inherit; }
nav li button[aria-current="true"] { border-color: var(--line); background: var(--bg); font-weight: 600; }
nav li small { display: block; color: var(--muted); font-weight: normal; }
#diff label { display: block; margin: .25rem 0; } #diff select { width: 100%; }
section { padding: 0 1rem 2rem; overflow-x: auto; }
table { border-collapse: collapse; margin: .3rem 0 .8rem; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .6rem; text-align: left; white-space: nowrap; }
th { background: var(--soft); font-weight: 600; } td.num, th.num { text-align: right; }
tbody tr[tabindex] { cursor: pointer; } tbody tr[tabindex]:hover { background: var(--soft); }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 1px; }
.success { color: var(--good); } .failure { color: var(--bad); } .harmful { color: var(--harm); } .escalated { color: var(--esc); }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .5rem 0; }
.filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
.filters input { width: 6rem; }
.pager { display: flex; gap: .5rem; align-items: center; }
dialog { width: min(96vw, 110rem); max-height: 92vh; border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }
#transcript-panes { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(0, 1fr); gap: 1rem; }
.pane { min-width: 0; } .pane pre { white-space: pre-wrap; word-break: break-word; background: var(--soft); padding: .4rem; border-radius: 4px; margin: .2rem 0; }
.msg { border-left: 3px solid var(--line); padding: .1rem .6rem; margin: .4rem 0; }
.msg.user { border-color: var(--focus); } .msg.assistant { border-color: var(--good); }
.block-error { color: var(--bad); } .muted { color: var(--muted); }
`;

export const VIEW_JS = `'use strict';
const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child ?? '')));
  return node;
};
const pct = (x) => (x * 100).toFixed(1) + '%';
const status = (text) => { $('status').textContent = text; };
async function api(path) {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? body.error.message : response.statusText);
  return body;
}

let sweeps = [];
let current = null;
let filters = {};
let page = { offset: 0, limit: 50 };

async function start() {
  sweeps = await api('/api/sweeps');
  const list = $('sweeps');
  for (const sweep of sweeps) {
    const label = sweep.problem ? sweep.problem : sweep.runs + ' runs · ' + sweep.model;
    list.append(el('li', {}, el('button', { type: 'button', 'data-sweep': sweep.id, onclick: () => openSweep(sweep.id) }, sweep.name, el('small', {}, label))));
    for (const select of [$('diff-a'), $('diff-b')]) select.append(el('option', { value: sweep.id }, sweep.name));
  }
  if (sweeps.length > 1) $('diff-b').value = String(sweeps[1].id);
  const armsOf = (select, arms) => {
    select.replaceChildren(el('option', { value: '' }, 'every arm'), ...arms.map((arm) => el('option', { value: arm }, arm)));
  };
  // Each side's arms follow its own sweep: choosing B keeps the arm chosen for A.
  const syncArms = (side) => armsOf($('diff-arm-' + side), (sweeps[Number($('diff-' + side).value)] || {}).arms || []);
  $('diff-a').addEventListener('change', () => syncArms('a'));
  $('diff-b').addEventListener('change', () => syncArms('b'));
  syncArms('a');
  syncArms('b');
  $('diff').addEventListener('submit', (event) => { event.preventDefault(); showDiff(); });
  status(sweeps.length + ' sweep(s)');
  if (sweeps.length > 0) openSweep(sweeps[0].id);
}

async function openSweep(id) {
  status('loading…');
  try { current = await api('/api/sweeps/' + id); } catch (error) { status(error.message); return; }
  filters = {};
  page = { offset: 0, limit: 50 };
  for (const button of document.querySelectorAll('[data-sweep]')) button.setAttribute('aria-current', String(button.dataset.sweep === String(id)));
  const section = $('sweep');
  section.replaceChildren(
    el('h2', {}, current.name + ' · ' + current.runs + ' runs · model ' + current.model),
    cellsTable(current.summary.cells),
    el('h3', {}, 'Runs'),
    el('div', { id: 'filters-slot' }),
    el('div', { id: 'runs' }),
  );
  await loadRuns();
  await showFilters(current);
}

// A big sweep's runs are indexed in the background: the first pages show at once, the
// filters once the index is built.
async function showFilters(sweep) {
  let index = sweep.index;
  while (!index.ready) {
    $('filters-slot').replaceChildren(el('p', { class: 'muted', role: 'status' }, 'indexing runs for filters and sorting… ' + (index.size ? Math.floor((100 * index.bytes) / index.size) : 0) + '%'));
    await new Promise((next) => setTimeout(next, 250));
    if (current !== sweep) return;
    try { index = await api('/api/sweeps/' + sweep.id + '/index'); } catch (error) {
      if (current === sweep) $('filters-slot').replaceChildren(el('p', { class: 'block-error' }, error.message));
      return;
    }
    // Another sweep opened while this one was asked about: its page is not this one's.
    if (current !== sweep) return;
  }
  if (current === sweep) $('filters-slot').replaceChildren(filterForm(index.choices));
}

function cellsTable(cells) {
  const head = el('tr', {}, ...['scenario', 'arm', 'runs', 'success [95% CI]', 'p95 tool calls', 'cost'].map((h, i) => el('th', i > 1 ? { class: 'num' } : {}, h)));
  const rows = cells.map((cell) => el('tr', {},
    el('td', {}, cell.scenario), el('td', {}, cell.arm), el('td', { class: 'num' }, cell.runs),
    el('td', { class: 'num' }, pct(cell.success.rate) + ' [' + pct(cell.success.low) + ', ' + pct(cell.success.high) + ']'),
    el('td', { class: 'num' }, cell.tool_calls.p95), el('td', { class: 'num' }, cell.cost_usd === undefined ? '–' : '$' + cell.cost_usd.toFixed(4))));
  return el('table', { 'aria-label': 'cells' }, el('thead', {}, head), el('tbody', {}, ...rows));
}

function filterForm(choices) {
  const form = el('form', { class: 'filters', id: 'filters' });
  for (const name of ['scenario', 'arm', 'verdict', 'outcome', 'task', 'fault', 'event', 'member']) {
    if (choices[name].length === 0) continue;
    form.append(el('label', {}, name, el('select', { name }, el('option', { value: '' }, 'any'), ...choices[name].map((value) => el('option', { value }, value)))));
  }
  form.append(el('label', {}, 'seed from', el('input', { name: 'seed_min', type: 'number' })));
  form.append(el('label', {}, 'seed to', el('input', { name: 'seed_max', type: 'number' })));
  form.append(el('label', {}, 'sort by', el('select', { name: 'sort' }, ...['seed', 'tool_calls', 'model_calls', 'input_tokens', 'cost_usd'].map((value) => el('option', { value }, value)))));
  form.append(el('label', {}, 'order', el('select', { name: 'order' }, el('option', { value: 'asc' }, 'ascending'), el('option', { value: 'desc' }, 'descending'))));
  form.append(el('button', { type: 'submit' }, 'Filter'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    filters = Object.fromEntries([...new FormData(form)].filter(([, value]) => value !== ''));
    page.offset = 0;
    loadRuns();
  });
  return form;
}

async function loadRuns() {
  const query = new URLSearchParams({ ...filters, offset: page.offset, limit: page.limit });
  let result;
  try { result = await api('/api/sweeps/' + current.id + '/runs?' + query); } catch (error) { status(error.message); return; }
  const hasTask = result.rows.some((row) => row.task !== undefined);
  const columns = ['seed', 'scenario', 'arm', ...(hasTask ? ['task'] : []), 'verdict', 'outcome', 'tool calls', 'model calls', 'input tokens', 'cost', 'faults met'];
  const rows = result.rows.map((row) => {
    const open = () => openTranscripts([{ sweep: current.id, name: current.name, ...row }]);
    return el('tr', { tabindex: '0', onclick: open, onkeydown: (event) => { if (event.key === 'Enter') { event.preventDefault(); open(); } } },
      el('td', { class: 'num' }, row.seed), el('td', {}, row.scenario), el('td', {}, row.arm), ...(hasTask ? [el('td', {}, row.task ?? '')] : []),
      el('td', { class: row.verdict }, row.verdict), el('td', {}, row.outcome), el('td', { class: 'num' }, row.tool_calls),
      el('td', { class: 'num' }, row.model_calls), el('td', { class: 'num' }, row.input_tokens),
      el('td', { class: 'num' }, row.cost_usd === null ? '–' : '$' + row.cost_usd.toFixed(4)), el('td', {}, row.faults.join(', ')));
  });
  const last = Math.min(result.total, result.offset + result.rows.length);
  const pager = el('div', { class: 'pager' },
    el('button', { type: 'button', onclick: () => { page.offset = Math.max(0, page.offset - page.limit); loadRuns(); } }, '‹ previous'),
    (result.total === 0 ? 0 : result.offset + 1) + '–' + last + ' of ' + result.total,
    el('button', { type: 'button', onclick: () => { if (last < result.total) { page.offset += page.limit; loadRuns(); } } }, 'next ›'));
  $('runs').replaceChildren(pager, el('table', { 'aria-label': 'runs' }, el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', {}, c)))), el('tbody', {}, ...rows)));
  status(result.total + ' runs match');
}

function blockView(block) {
  if (block.type === 'text') return el('div', {}, block.text);
  if (block.type === 'tool_use') return el('pre', {}, '→ ' + block.name + ' ' + JSON.stringify(block.input));
  if (block.type === 'tool_result') {
    const text = typeof block.content === 'string' ? block.content : (block.content || []).map((part) => part.text || JSON.stringify(part)).join('\\n');
    return el('pre', { class: block.is_error ? 'block-error' : '' }, '← ' + (block.is_error ? 'error: ' : '') + text);
  }
  return el('pre', {}, JSON.stringify(block));
}

function paneView(title, run) {
  const record = run.record || {};
  const pane = el('div', { class: 'pane' }, el('h3', {}, title),
    el('p', {}, el('strong', { class: record.verdict }, record.verdict), ' — ' + (record.verdict_reason || '')),
    el('p', { class: 'muted' }, record.tool_calls + ' tool calls · ' + record.model_calls + ' model calls · ' + record.input_tokens + ' input tokens'));
  for (const message of run.messages || []) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    pane.append(el('div', { class: 'msg ' + message.role }, el('small', { class: 'muted' }, message.role), ...blocks.map(blockView)));
  }
  const faults = (run.events || []).filter((event) => event.type && event.type.includes('fault')).length;
  pane.append(el('h3', {}, 'Events'), el('p', { class: 'muted' }, (run.events || []).length + ' events, ' + faults + ' about faults'));
  pane.append(el('pre', {}, (run.events || []).map((event) => event.type + (event.tool ? ' ' + event.tool : '') + (event.kind ? ' ' + event.kind : '')).join('\\n')));
  if (run.world && run.world.outbox) pane.append(el('h3', {}, 'Outbox'), el('pre', {}, JSON.stringify(run.world.outbox, null, 1)));
  return pane;
}

async function openTranscripts(runs) {
  const panes = $('transcript-panes');
  panes.replaceChildren(...runs.map(() => el('div', { class: 'pane' }, 'replaying…')));
  $('transcripts').showModal();
  await Promise.all(runs.map(async (run, i) => {
    const title = run.name + ' · ' + run.scenario + ' · ' + run.arm + ' · seed ' + run.seed + (run.task ? ' · task ' + run.task : '');
    try {
      const query = new URLSearchParams({ scenario: run.scenario, arm: run.arm, seed: run.seed });
      panes.children[i].replaceWith(paneView(title, await api('/api/sweeps/' + run.sweep + '/transcript?' + query)));
    } catch (error) {
      panes.children[i].replaceWith(el('div', { class: 'pane' }, el('h3', {}, title), el('p', { class: 'block-error' }, error.message)));
    }
  }));
}

async function showDiff() {
  const form = new FormData($('diff'));
  const query = new URLSearchParams([...form].filter(([, value]) => value !== ''));
  status('comparing…');
  let diff;
  try { diff = await api('/api/diff?' + query); } catch (error) { status(error.message); return; }
  const a = sweeps[Number(form.get('a'))];
  const b = sweeps[Number(form.get('b'))];
  const cells = el('table', { 'aria-label': 'moved cells' }, el('thead', {}, el('tr', {}, ...['scenario', 'arm', 'A success', 'B success', 'moved'].map((h) => el('th', {}, h)))),
    el('tbody', {}, ...diff.cells.map((cell) => el('tr', {}, el('td', {}, cell.scenario), el('td', {}, cell.arm),
      el('td', { class: 'num' }, pct(cell.a.rate) + ' [' + pct(cell.a.low) + ', ' + pct(cell.a.high) + ']'),
      el('td', { class: 'num' }, pct(cell.b.rate) + ' [' + pct(cell.b.low) + ', ' + pct(cell.b.high) + ']'),
      el('td', { class: 'num' + (cell.clear ? (cell.moved < 0 ? ' failure' : ' success') : '') }, (cell.moved >= 0 ? '+' : '') + (cell.moved * 100).toFixed(1) + ' pts' + (cell.clear ? '' : ' (within noise)'))))));
  const flips = diff.flipped.map((flip) => {
    const open = () => openTranscripts([
      { sweep: a.id, name: 'A ' + a.name, scenario: flip.scenario, arm: flip.a.arm, seed: flip.seed },
      { sweep: b.id, name: 'B ' + b.name, scenario: flip.scenario, arm: flip.b.arm, seed: flip.seed },
    ]);
    return el('tr', { tabindex: '0', onclick: open, onkeydown: (event) => { if (event.key === 'Enter') { event.preventDefault(); open(); } } },
      el('td', {}, flip.kind), el('td', {}, flip.scenario), el('td', {}, flip.arm), el('td', { class: 'num' }, flip.seed),
      el('td', { class: flip.a.verdict }, flip.a.verdict), el('td', { class: flip.b.verdict }, flip.b.verdict));
  });
  const { lost, gained } = diff.flips;
  const shown = diff.flipped.length < lost + gained ? ' (the first ' + diff.flipped.filter((flip) => flip.kind === 'lost').length + ' lost and ' + diff.flipped.filter((flip) => flip.kind === 'gained').length + ' gained listed)' : '';
  $('sweep').replaceChildren(
    el('h2', {}, 'A ' + a.name + (form.get('arm_a') ? ' · ' + form.get('arm_a') : '') + '  vs  B ' + b.name + (form.get('arm_b') ? ' · ' + form.get('arm_b') : '')),
    cells,
    el('h3', {}, diff.unpaired ? 'Seeds not compared' : 'Flipped seeds: ' + lost + ' lost (success on A only), ' + gained + ' gained' + shown),
    el('p', { class: 'muted' }, diff.unpaired ? diff.unpaired + '.' : 'The same seed is the same task under the same faults on both sides: open one to read both transcripts side by side.'),
    el('table', { 'aria-label': 'flipped seeds' }, el('thead', {}, el('tr', {}, ...['flip', 'scenario', 'arm', 'seed', 'A', 'B'].map((h) => el('th', {}, h)))), el('tbody', {}, ...flips)));
  for (const button of document.querySelectorAll('[data-sweep]')) button.setAttribute('aria-current', 'false');
  status(lost + gained + ' flipped seeds');
}

start().catch((error) => status(error.message));
`;
