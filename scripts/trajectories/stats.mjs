#!/usr/bin/env node
// Behaviour statistics of agent trajectories in spiralbench's trajectory JSONL (one run a line:
// {"id", "turns": [{"calls": [{"name", "input", "result": {"text", "is_error"} | null}]} | {"text"}]}).
// Usage: node scripts/trajectories/stats.mjs <runs.jsonl>... [--json]
// Runs are grouped by the part of their id before the first "/" (the converter puts the source file's
// name there; ids without one are grouped by file); each group is reported, then all runs pooled.
// Definitions: docs/evidence/tau-bench.md.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const files = args.filter((a) => a !== '--json');
if (files.length === 0) {
  console.error('usage: node scripts/trajectories/stats.mjs <runs.jsonl>... [--json]');
  process.exit(2);
}

/** JSON with object keys sorted at every depth. */
const canonical = (v) =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
          .join(',')}}`
      : JSON.stringify(v ?? null);
const key = (call) => `${call.name}\u0000${canonical(call.input ?? {})}`;

/** A call that hands the task to a human or asks for help: counted with text turns as stop_or_help. */
const HELP_TOOL = /transfer_to_human|human_agent|handoff|hand_off|escalat|ask_for_help|request_help/i;
/** Errors a retry could cure. Everything else that is an error (not found, invalid, refused) is permanent. */
const TRANSIENT = new RegExp(
  [
    'time[ds]? ?out|timed out|\\b429\\b|rate.?limit|too many requests|overloaded|unavailable|temporar',
    'try again later|ECONNRESET|ECONNREFUSED|socket hang up',
    '\\b(?:status|http|code|error)[ :]*5\\d\\d\\b|\\b5\\d\\d (?:internal|bad gateway|service|gateway)',
  ].join('|'),
  'i',
);

const KINDS = ['good', 'error', 'permanent', 'transient'];
const ACTIONS = ['identical', 'same_tool_other_args', 'other_tool', 'stop_or_help'];
const THRESHOLDS = [20, 30, 50];
/** Call-level variant: the next call of the run after a call's result, text turns in between skipped. */
const CALL_ACTIONS = ['identical', 'same_tool_other_args', 'other_tool', 'no_later_call'];

const resultKinds = (result) =>
  result.is_error ? ['error', TRANSIENT.test(result.text) ? 'transient' : 'permanent'] : ['good'];

function emptyGroup() {
  return {
    runs: 0,
    turns: 0,
    textTurns: 0,
    calls: 0,
    identicalConsecutive: 0,
    callsPerRun: [],
    repeatPairRuns: [],
    resultsMissing: 0,
    after: Object.fromEntries(KINDS.map((k) => [k, Object.fromEntries(ACTIONS.map((a) => [a, 0]))])),
    stopSplit: Object.fromEntries(KINDS.map((k) => [k, { text: 0, help_tool: 0 }])),
    afterCall: Object.fromEntries(KINDS.map((k) => [k, Object.fromEntries(CALL_ACTIONS.map((a) => [a, 0]))])),
  };
}

function addRun(g, run) {
  g.runs++;
  const turns = run.turns ?? [];
  g.turns += turns.length;
  const flat = [];
  const flatCalls = [];
  for (const t of turns) {
    if (Array.isArray(t.calls)) for (const c of t.calls) flat.push(key(c)), flatCalls.push(c);
    else g.textTurns++;
  }
  flatCalls.forEach((c, i) => {
    if (!c.result) return;
    const next = flatCalls[i + 1];
    const action =
      next === undefined
        ? 'no_later_call'
        : flat[i + 1] === flat[i]
          ? 'identical'
          : next.name === c.name
            ? 'same_tool_other_args'
            : 'other_tool';
    for (const k of resultKinds(c.result)) g.afterCall[k][action]++;
  });
  g.calls += flat.length;
  let repeatPair = false;
  for (let i = 1; i < flat.length; i++) {
    if (flat[i] === flat[i - 1]) g.identicalConsecutive++;
    if (flat[i] === flat[i - 1] || (i >= 2 && flat[i] === flat[i - 2])) repeatPair = true;
  }
  g.callsPerRun.push(flat.length);
  g.repeatPairRuns.push({ calls: flat.length, repeatPair });

  for (let i = 0; i + 1 < turns.length; i++) {
    const calls = turns[i].calls;
    if (!Array.isArray(calls) || calls.length === 0) continue;
    const last = calls[calls.length - 1];
    if (!last.result) {
      g.resultsMissing++;
      continue;
    }
    const kinds = resultKinds(last.result);
    const next = turns[i + 1];
    const first = Array.isArray(next.calls) ? next.calls[0] : undefined;
    const action =
      first === undefined || HELP_TOOL.test(first.name)
        ? 'stop_or_help'
        : key(first) === key(last)
          ? 'identical'
          : first.name === last.name
            ? 'same_tool_other_args'
            : 'other_tool';
    for (const k of kinds) {
      g.after[k][action]++;
      if (action === 'stop_or_help') g.stopSplit[k][first === undefined ? 'text' : 'help_tool']++;
    }
  }
}

function quantile(sorted, q) {
  // nearest rank
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function summarize(g) {
  const sorted = [...g.callsPerRun].sort((a, b) => a - b);
  const median =
    sorted.length === 0
      ? null
      : sorted.length % 2
        ? sorted[(sorted.length - 1) / 2]
        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  const after = {};
  for (const k of KINDS) {
    const n = ACTIONS.reduce((s, a) => s + g.after[k][a], 0);
    after[k] = { n };
    for (const a of ACTIONS) after[k][a] = { count: g.after[k][a], share: n ? g.after[k][a] / n : null };
    after[k].stop_or_help = { ...after[k].stop_or_help, ...g.stopSplit[k] };
  }
  const afterCall = {};
  for (const k of KINDS) {
    const n = CALL_ACTIONS.reduce((s, a) => s + g.afterCall[k][a], 0);
    afterCall[k] = { n };
    for (const a of CALL_ACTIONS) {
      afterCall[k][a] = { count: g.afterCall[k][a], share: n ? g.afterCall[k][a] / n : null };
    }
  }
  const longRuns = {};
  for (const t of THRESHOLDS) {
    const over = g.repeatPairRuns.filter((r) => r.calls > t);
    const withPair = over.filter((r) => r.repeatPair).length;
    longRuns[`over_${t}`] = {
      runs: over.length,
      with_repeat_pair: withPair,
      share: over.length ? withPair / over.length : null,
    };
  }
  const allWithPair = g.repeatPairRuns.filter((r) => r.repeatPair).length;
  return {
    runs: g.runs,
    turns: g.turns,
    text_turns: g.textTurns,
    calls: g.calls,
    results_missing: g.resultsMissing,
    identical_consecutive: { count: g.identicalConsecutive, share: g.calls ? g.identicalConsecutive / g.calls : null },
    after,
    after_call: afterCall,
    calls_per_run: {
      mean: g.runs ? g.calls / g.runs : null,
      median,
      p95: quantile(sorted, 0.95),
      max: sorted.length ? sorted[sorted.length - 1] : null,
    },
    runs_with_repeat_pair: { count: allWithPair, share: g.runs ? allWithPair / g.runs : null },
    long_runs: longRuns,
  };
}

const groups = new Map();
const pooled = emptyGroup();
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let run;
    try {
      run = JSON.parse(line);
    } catch (e) {
      throw new Error(`${file}:${i + 1}: ${e.message}`);
    }
    const id = String(run.id ?? '');
    const name = id.includes('/') ? id.slice(0, id.indexOf('/')) : basename(file).replace(/\.jsonl$/, '');
    if (!groups.has(name)) groups.set(name, emptyGroup());
    addRun(groups.get(name), run);
    addRun(pooled, run);
  });
}

const result = Object.fromEntries([...groups].map(([name, g]) => [name, summarize(g)]));
if (groups.size > 1) result.pooled = summarize(pooled);
if (asJson) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}

const pct = (x) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
const pct2 = (x) => (x === null ? '–' : `${(100 * x).toFixed(2)}%`);
const names = Object.keys(result);
const row = (cells) => `| ${cells.join(' | ')} |`;
const out = [];
out.push(row(['', ...names]), row(['---', ...names.map(() => '---:')]));
out.push(row(['runs', ...names.map((n) => result[n].runs)]));
out.push(row(['calls', ...names.map((n) => result[n].calls)]));
out.push(row(['text turns', ...names.map((n) => result[n].text_turns)]));
out.push(
  row([
    'identical_consecutive',
    ...names.map((n) => `${pct2(result[n].identical_consecutive.share)} (${result[n].identical_consecutive.count})`),
  ]),
);
out.push(
  row([
    'calls/run median · p95 · max',
    ...names.map((n) => {
      const c = result[n].calls_per_run;
      return `${c.median} · ${c.p95} · ${c.max}`;
    }),
  ]),
);
out.push(
  row([
    'runs with a repeat pair (all)',
    ...names.map((n) => {
      const r = result[n].runs_with_repeat_pair;
      return `${pct(r.share)} (${r.count}/${result[n].runs})`;
    }),
  ]),
);
for (const t of THRESHOLDS) {
  out.push(
    row([
      `runs > ${t} calls: with a repeat pair`,
      ...names.map((n) => {
        const l = result[n].long_runs[`over_${t}`];
        return l.runs ? `${pct(l.share)} (${l.with_repeat_pair}/${l.runs})` : '0 runs';
      }),
    ]),
  );
}
out.push('');
for (const n of names) {
  out.push(`${n}: next turn's action after the last result of a turn`, '');
  out.push(row(['after', 'n', ...ACTIONS]), row(['---', '---:', ...ACTIONS.map(() => '---:')]));
  for (const k of KINDS) {
    const a = result[n].after[k];
    const cell = (x) =>
      x === 'stop_or_help' && a[x].count
        ? `${pct(a[x].share)} (${a[x].count}: ${a[x].text} text, ${a[x].help_tool} help tool)`
        : `${pct(a[x].share)} (${a[x].count})`;
    out.push(row([k, a.n, ...ACTIONS.map((x) => (a.n ? cell(x) : '–'))]));
  }
  out.push('', `${n}: next call of the run after a call's result (text turns in between skipped)`, '');
  out.push(row(['after', 'n', ...CALL_ACTIONS]), row(['---', '---:', ...CALL_ACTIONS.map(() => '---:')]));
  for (const k of KINDS) {
    const a = result[n].after_call[k];
    out.push(row([k, a.n, ...CALL_ACTIONS.map((x) => (a.n ? `${pct(a[x].share)} (${a[x].count})` : '–'))]));
  }
  const missing = result[n].results_missing;
  if (missing) out.push('', `${missing} turns' last call has no result (not counted)`);
  out.push('');
}
process.stdout.write(`${out.join('\n')}\n`);
