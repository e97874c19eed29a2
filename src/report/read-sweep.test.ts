import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { readSweep } from './read-sweep.js';

let root = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'spiralbench-read-sweep-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

let folders = 0;
/** A sweep folder holding the given runs.jsonl text (and summary.json, if given). */
function sweepDir(runs: string | undefined, summary?: string): string {
  const dir = join(root, `sweep-${(folders += 1)}`);
  mkdirSync(dir);
  if (runs !== undefined) writeFileSync(join(dir, 'runs.jsonl'), runs);
  if (summary !== undefined) writeFileSync(join(dir, 'summary.json'), summary);
  return dir;
}

function run(fields: Record<string, unknown>): string {
  return JSON.stringify({
    sweep_seed: 0,
    scenario: 's1',
    arm: 'none',
    seed: 1,
    model: 'simulated',
    outcome: 'completed',
    verdict: 'success',
    tool_calls: 10,
    input_tokens: 1000,
    output_tokens: 100,
    ...fields,
  });
}

async function inputError(promise: Promise<unknown>): Promise<UserInputError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UserInputError) return error;
    throw error;
  }
  throw new Error('expected a UserInputError, nothing was thrown');
}

describe('readSweep', () => {
  it('groups runs into (scenario, arm) cells in file order, with the counts compare needs', async () => {
    const lines = [
      run({ seed: 1, tool_calls: 12, input_tokens: 1500, output_tokens: 120 }),
      run({ seed: 2, verdict: 'failure', tool_calls: 40 }),
      run({ seed: 1, arm: 'stuck', verdict: 'escalated', tool_calls: 3 }),
      run({ seed: 3, verdict: 'escalated', tool_calls: 7 }),
      run({ seed: 1, scenario: 's2', verdict: 'escalated', model: 'claude-x' }),
    ];
    const summary = JSON.stringify({
      scenarios: [
        { id: 's1', impossible: false },
        { id: 's2', impossible: true },
      ],
    });
    const sweep = await readSweep(sweepDir(`${lines.join('\n')}\n\n`, summary));
    expect(sweep.runs).toBe(5);
    expect(sweep.models).toEqual(['simulated', 'claude-x']);
    expect(sweep.hasSummary).toBe(true);
    expect(
      sweep.cells.map((cell) => ({
        ...cell,
        toolCalls: [...cell.toolCalls],
        inputTokens: [...cell.inputTokens],
        outputTokens: [...cell.outputTokens],
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
      },
    ]);
  });

  it('reads a runs.jsonl given directly, and a folder without summary.json', async () => {
    const dir = sweepDir(`${run({})}\n`);
    expect((await readSweep(join(dir, 'runs.jsonl'))).runs).toBe(1);
    expect(await readSweep(dir)).toMatchObject({ runs: 1, hasSummary: false });
  });

  it('names a missing folder, or a folder without runs.jsonl', async () => {
    const missing = join(root, 'nope');
    expect((await inputError(readSweep(missing))).message).toBe(
      `${missing}: a sweep folder holding runs.jsonl (written by \`spiralbench run --out <dir>\`); nothing is there`,
    );
    const empty = sweepDir(undefined);
    expect((await inputError(readSweep(empty))).message).toMatch(/the folder has no runs\.jsonl$/);
  });

  it.each([
    [
      'a line that is not JSON',
      [run({}), '{"scenario": "s1", "arm"'],
      2,
      '',
      /^one JSON run record per line; got: \{"scenario"/,
    ],
    [
      'a line that is not an object',
      [run({}), run({ seed: 2 }), '[1, 2]'],
      3,
      '',
      /^a JSON object \(a run record\); got: \[1, 2\]$/,
    ],
    [
      'a missing field',
      [run({ tool_calls: undefined })],
      1,
      'tool_calls',
      /^a non-negative whole number; got nothing \(the field is missing\)$/,
    ],
    ['a negative count', [run({ input_tokens: -5 })], 1, 'input_tokens', /^a non-negative whole number; got -5$/],
    ['a fractional count', [run({ output_tokens: 1.5 })], 1, 'output_tokens', /got 1\.5$/],
    ['an empty arm', [run({ arm: '' })], 1, 'arm', /^a non-empty string; got ""$/],
    [
      'an unknown verdict',
      [run({ verdict: 'great' })],
      1,
      'verdict',
      /^one of success, escalated, failure, harmful; got 'great'$/,
    ],
    [
      'a run recorded twice',
      [run({ seed: 4 }), run({ seed: 5 }), run({ seed: 4 })],
      3,
      'seed',
      /seed 4 is also on line 1$/,
    ],
  ])('rejects %s, naming the file, line and field', async (_what, lines, line, field, expected) => {
    const dir = sweepDir(`${lines.join('\n')}\n`);
    const [problem] = (await inputError(readSweep(dir))).problems;
    expect(problem?.source).toBe(`${join(dir, 'runs.jsonl')}:${line}`);
    expect(problem?.field).toBe(field);
    expect(problem?.expected).toMatch(expected);
  });

  it('rejects an empty runs.jsonl and an unreadable summary.json', async () => {
    expect((await inputError(readSweep(sweepDir('\n')))).message).toMatch(
      /runs\.jsonl: at least one run record; the file is empty$/,
    );
    const dir = sweepDir(`${run({})}\n`, '{ not json');
    expect((await inputError(readSweep(dir))).problems[0]).toMatchObject({
      source: join(dir, 'summary.json'),
      expected: expect.stringMatching(/^valid JSON/),
    });
  });
});
