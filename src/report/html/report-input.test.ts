import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../../user-input-error.js';
import { readReportInput, readSweepHeader } from './report-input.js';

const proportion = { successes: 1, trials: 2, rate: 0.5, low: 0.09, high: 0.91 };
const distribution = { median: 1, p95: 2, max: 2, mean: 1.5 };
const SUMMARY = {
  spiralbench: '0.1.0',
  sweep_seed: 0,
  seeds: { base: 1, count: 2 },
  model: 'simulated',
  shard: null,
  scenarios: [{ id: 's', hash: 'h', tool_budget: 15, impossible: false }],
  arms: [{ name: 'none', guards: [] }],
  cells: [
    {
      scenario: 's',
      arm: 'none',
      runs: 2,
      success: proportion,
      right_outcome: proportion,
      verdicts: { success: 1, failure: 1 },
      outcomes: { completed: 2 },
      tool_calls: distribution,
      tool_executions: distribution,
      model_calls: distribution,
      input_tokens: distribution,
      output_tokens: distribution,
      virtual_ms: distribution,
      duplicate_side_effects: 0,
    },
  ],
  pass_hat_k: [{ arm: 'none', k: { '1': 0.5 } }],
};
const run = (seed: number, verdict: string) =>
  JSON.stringify({
    scenario: 's',
    arm: 'none',
    seed,
    model: 'simulated',
    verdict,
    tool_calls: seed,
    input_tokens: 100 * seed,
    output_tokens: 10,
  });

function sweepDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'spiralbench-input-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function problem(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof UserInputError) return error.message;
    throw error;
  }
  return 'no error';
}

describe('readReportInput', () => {
  it('reads a finished sweep; meta.json and traces.jsonl are optional', async () => {
    const dir = sweepDir({
      'summary.json': JSON.stringify(SUMMARY),
      'runs.jsonl': `${run(1, 'success')}\n${run(2, 'failure')}\n`,
    });
    const input = await readReportInput(dir);
    expect(input.meta).toBeUndefined();
    expect(input.traces).toBeUndefined();
    expect(input.runs.cells[0]?.toolCalls).toEqual(Float64Array.from([1, 2]));
  });

  it('refuses a sweep without summary.json, naming what is missing', () => {
    const dir = sweepDir({ 'runs.jsonl': `${run(1, 'success')}\n` });
    expect(problem(() => readSweepHeader(dir))).toMatch(
      /: a finished sweep folder holding summary\.json; an interrupted sweep has none/,
    );
  });

  it('names the file and field of a bad summary.json or meta.json', () => {
    const bad = sweepDir({
      'summary.json': JSON.stringify({ ...SUMMARY, cells: [{ ...SUMMARY.cells[0], runs: -1 }] }),
    });
    expect(problem(() => readSweepHeader(bad))).toMatch(/summary\.json: cells\.0\.runs: Too small/);
    const meta = sweepDir({ 'summary.json': JSON.stringify(SUMMARY), 'meta.json': JSON.stringify({ node: 'v20' }) });
    expect(problem(() => readSweepHeader(meta))).toMatch(/meta\.json: spiralbench: /);
  });

  it('names the line of a bad trace', async () => {
    const dir = sweepDir({
      'summary.json': JSON.stringify(SUMMARY),
      'runs.jsonl': `${run(1, 'success')}\n`,
      'traces.jsonl': '{"scenario":"s"}\n',
    });
    await expect(readReportInput(dir)).rejects.toThrow(/traces\.jsonl:1: arm: /);
  });
});
