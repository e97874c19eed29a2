import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishedFolder, fixtureFolder, fixtureRun, fixtureSummary } from '../../results/sweep-fixture.test-helpers.js';
import { UserInputError } from '../../user-input-error.js';
import { readReportInput, readSweepHeader } from './report-input.js';

const SUMMARY = fixtureSummary([{ scenario: 's', arm: 'none', runs: 2 }]);
const runs = [
  fixtureRun({ scenario: 's', seed: 1, tool_calls: 1 }),
  fixtureRun({ scenario: 's', seed: 2, tool_calls: 2 }),
];

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
    const input = await readReportInput(finishedFolder(runs, SUMMARY));
    expect(input.meta).toBeUndefined();
    expect(input.traces).toBeUndefined();
    expect(input.runs.cells[0]?.toolCalls).toEqual(Float64Array.from([1, 2]));
  });

  it('refuses a sweep without summary.json, naming what is missing', () => {
    const dir = fixtureFolder({ 'runs.jsonl': `${JSON.stringify(runs[0])}\n` });
    expect(problem(() => readSweepHeader(dir))).toMatch(
      /: a finished sweep folder holding summary\.json; this one has none/,
    );
  });

  it('names the file and field of a bad summary.json or meta.json', () => {
    const bad = finishedFolder(runs, { ...SUMMARY, cells: [{ ...SUMMARY.cells[0]!, runs: -1 }] });
    expect(problem(() => readSweepHeader(bad))).toMatch(
      /summary\.json: cells\.0\.runs: a non-negative whole number; got -1/,
    );
    const meta = finishedFolder(runs, SUMMARY);
    writeFileSync(join(meta, 'meta.json'), JSON.stringify({ node: 'v20' }));
    expect(problem(() => readSweepHeader(meta))).toMatch(/meta\.json: spiralbench: a string; got nothing/);
  });

  it('names the line of a bad trace', async () => {
    const dir = finishedFolder(runs, SUMMARY);
    writeFileSync(join(dir, 'traces.jsonl'), '{"scenario":"s"}\n');
    await expect(readReportInput(dir)).rejects.toThrow(/traces\.jsonl:1: arm: /);
  });
});
