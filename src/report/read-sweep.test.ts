import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredRun } from '../results/run-record-schema.js';
import { finishedFolder, fixtureRun, fixtureSummary } from '../results/sweep-fixture.test-helpers.js';
import { UserInputError } from '../user-input-error.js';
import { readSweep } from './read-sweep.js';

async function inputError(promise: Promise<unknown>): Promise<UserInputError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UserInputError) return error;
    throw error;
  }
  throw new Error('expected a UserInputError, nothing was thrown');
}

const run = (fields: Partial<Record<keyof StoredRun, unknown>>) => fixtureRun(fields);

describe('readSweep', () => {
  it('groups runs into (scenario, arm) cells in file order, with the counts compare needs', async () => {
    const runs = [
      run({ seed: 1, tool_calls: 12, input_tokens: 1500, output_tokens: 120 }),
      run({ seed: 2, verdict: 'failure', tool_calls: 40 }),
      run({ seed: 1, arm: 'stuck', verdict: 'escalated', tool_calls: 3 }),
      run({ seed: 3, verdict: 'escalated', tool_calls: 7 }),
      run({ seed: 1, scenario: 's2', verdict: 'escalated', model: 'claude-x' }),
    ];
    const cells = [
      { scenario: 's1', arm: 'none', runs: 3 },
      { scenario: 's1', arm: 'stuck', runs: 1 },
      { scenario: 's2', arm: 'none', runs: 1 },
    ];
    const summary = fixtureSummary(cells);
    const dir = finishedFolder(runs, {
      ...summary,
      scenarios: [
        { id: 's1', hash: 'h', tool_budget: 15, impossible: false },
        { id: 's2', hash: 'h', tool_budget: 15, impossible: true },
      ],
    });
    const sweep = await readSweep(dir);
    expect(sweep.runs).toBe(5);
    expect(sweep.models).toEqual(['simulated', 'claude-x']);
    expect(
      sweep.cells.map((cell) => ({
        ...cell,
        toolCalls: [...cell.toolCalls],
        inputTokens: [...cell.inputTokens],
        outputTokens: [...cell.outputTokens],
        seeds: [...cell.seeds],
        members: [...cell.members],
        right: [...cell.right],
        harmful: [...cell.harmful],
      })),
    ).toEqual([
      {
        scenario: 's1',
        arm: 'none',
        impossible: false,
        trials: 3,
        successes: 1,
        escalated: 1,
        toolCalls: [12, 40, 7],
        inputTokens: [1500, 1000, 1000],
        outputTokens: [120, 100, 100],
        seeds: [1, 2, 3],
        members: [0, 0, 0],
        right: [1, 0, 0],
        harmful: [0, 0, 0],
        events: { 'agent_run.started': 3 },
        costUsd: 0.03,
      },
      {
        scenario: 's1',
        arm: 'stuck',
        impossible: false,
        trials: 1,
        successes: 0,
        escalated: 1,
        toolCalls: [3],
        inputTokens: [1000],
        outputTokens: [100],
        seeds: [1],
        members: [0],
        right: [0],
        harmful: [0],
        events: { 'agent_run.started': 1 },
        costUsd: 0.01,
      },
      {
        scenario: 's2',
        arm: 'none',
        impossible: true,
        trials: 1,
        successes: 0,
        escalated: 1,
        toolCalls: [10],
        inputTokens: [1000],
        outputTokens: [100],
        seeds: [1],
        members: [0],
        right: [1],
        harmful: [0],
        events: { 'agent_run.started': 1 },
        costUsd: 0.01,
      },
    ]);
    expect(sweep.ensemble).toBeUndefined();
  });

  it('reads each run’s ensemble member, and the ensemble summary.json names', async () => {
    const runs = [
      run({ seed: 1, member: 0 }),
      run({ seed: 2, member: 1, verdict: 'harmful' }),
      run({ seed: 3, member: 2 }),
    ];
    const ensemble = { name: 'default', members: 3, hash: 'abc' };
    const dir = finishedFolder(runs, { ...fixtureSummary([{ scenario: 's1', arm: 'none', runs: 3 }]), ensemble });
    const sweep = await readSweep(dir);
    expect([...sweep.cells[0]!.members]).toEqual([0, 1, 2]);
    expect([...sweep.cells[0]!.harmful]).toEqual([0, 1, 0]);
    expect(sweep.ensemble).toEqual(ensemble);
  });

  it('reads a sweep given by its runs.jsonl, and refuses one without summary.json', async () => {
    const dir = finishedFolder([run({})]);
    expect((await readSweep(join(dir, 'runs.jsonl'))).runs).toBe(1);
    const bare = finishedFolder([run({})]);
    writeFileSync(join(bare, 'summary.json'), '');
    expect((await inputError(readSweep(bare))).problems[0]).toMatchObject({ source: join(bare, 'summary.json') });
  });

  it('refuses a run recorded twice, naming both lines', async () => {
    const dir = finishedFolder([run({ seed: 4 }), run({ seed: 5 }), run({ seed: 4 })]);
    const [problem] = (await inputError(readSweep(dir))).problems;
    expect(problem).toEqual({
      source: `${join(dir, 'runs.jsonl')}:3`,
      field: 'seed',
      expected: "a seed not already recorded for scenario 's1', arm 'none'; seed 4 is also on line 1",
    });
  });

  it('refuses a sweep cut short (the runs are checked against summary.json)', async () => {
    const dir = finishedFolder([run({ seed: 1 })], fixtureSummary([{ scenario: 's1', arm: 'none', runs: 2 }]));
    expect((await inputError(readSweep(dir))).message).toBe(
      `${join(dir, 'runs.jsonl')}: 2 runs, as summary.json records; found 1: the file was cut short or changed after the sweep finished`,
    );
  });
});
