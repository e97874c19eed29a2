#!/usr/bin/env node
// Converts tau-bench trajectory files (sierra-research/tau-bench, historical_trajectories/*.json)
// into spiralbench's trajectory JSONL, one run per line:
//   {"id", "turns": [{"calls": [{"name", "input", "result": {"text", "is_error"} | null}]} | {"text"}]}
// Usage: node scripts/trajectories/tau-bench.mjs <input.json>... > out.jsonl
//
// A tau-bench file is an array of runs {task_id, trial, reward, info, traj}; traj holds OpenAI chat
// messages. One assistant message is one turn: with tool_calls, a calls turn (its content, if any, is
// not shown to the user by tau-bench and is dropped here); without, a text turn. The tool messages that
// follow an assistant message answer its calls (tau-bench runs one call a step). tau-bench's environment
// reports a failed call as "Error: ..." (an exception or a domain refusal) or "Unknown action <name>";
// both are errors here.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node scripts/trajectories/tau-bench.mjs <input.json>... > out.jsonl');
  process.exit(2);
}

const isError = (text) => text.startsWith('Error') || text.startsWith('Unknown action');

function parseInput(args) {
  if (args && typeof args === 'object') return args;
  try {
    const value = JSON.parse(args ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : { _value: value };
  } catch {
    return { _unparsed: String(args) };
  }
}

function convert(run, source) {
  const turns = [];
  const traj = run.traj;
  for (let i = 0; i < traj.length; i++) {
    const m = traj[i];
    if (m.role !== 'assistant') continue;
    if (!Array.isArray(m.tool_calls) || m.tool_calls.length === 0) {
      turns.push({ text: String(m.content ?? '') });
      continue;
    }
    // The tool messages right after the assistant message answer its calls. Within a run tau-bench's
    // files reuse tool_call_ids (the same id on different calls), so an id is matched only among
    // these, and a call without a match takes the next unclaimed one in order.
    const answers = [];
    for (let j = i + 1; j < traj.length && traj[j].role === 'tool'; j++) answers.push(traj[j]);
    const claimed = new Set();
    const calls = m.tool_calls.map((c) => {
      let k = answers.findIndex((a, n) => !claimed.has(n) && a.tool_call_id === c.id);
      if (k < 0) k = answers.findIndex((_, n) => !claimed.has(n));
      if (k >= 0) claimed.add(k);
      const text = k < 0 ? undefined : String(answers[k].content ?? '');
      return {
        name: c.function.name,
        input: parseInput(c.function.arguments),
        result: text === undefined ? null : { text, is_error: isError(text) },
      };
    });
    turns.push({ calls });
  }
  return { id: `${source}/task-${run.task_id}/trial-${run.trial ?? 0}`, turns };
}

let out = '';
for (const file of files) {
  const runs = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(runs)) throw new Error(`${file}: expected an array of runs`);
  const source = basename(file).replace(/\.json$/, '');
  for (const run of runs) out += `${JSON.stringify(convert(run, source))}\n`;
}
process.stdout.write(out);
