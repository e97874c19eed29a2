import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { readTrajectoryFile, trajectoryLine } from './trajectory-file.js';
import type { Trajectory } from './trajectory.js';

const dir = mkdtempSync(join(tmpdir(), 'spiralbench-trajectories-'));

function file(lines: readonly string[]): string {
  const path = join(dir, `t${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function problems(path: string): Promise<string> {
  try {
    await readTrajectoryFile(path, () => {});
  } catch (error) {
    if (error instanceof UserInputError) return error.message.replace(path, '<file>');
    throw error;
  }
  throw new Error('accepted');
}

const good: Trajectory = {
  id: 'r1',
  turns: [
    { calls: [{ name: 'get_user', input: { id: 'u_1' }, result: { text: 'Error: user not found', is_error: true } }] },
    { text: 'No such user.' },
  ],
};

describe('readTrajectoryFile', () => {
  it('streams each run, as trajectoryLine wrote it, with its line number', async () => {
    const seen: Array<[string, number]> = [];
    const path = file([trajectoryLine(good), '', trajectoryLine({ ...good, id: 'r2' })]);
    expect(await readTrajectoryFile(path, (trajectory, line) => seen.push([trajectory.id, line]))).toBe(2);
    expect(seen).toEqual([
      ['r1', 1],
      ['r2', 3],
    ]);
  });

  it('names the file, the line, the field and what was expected', async () => {
    expect(await problems(file([trajectoryLine(good), '{"id": "r2", "turns": [{"calls": []}]}']))).toBe(
      '<file>:2: turns.0.calls: at least one call (a reply without calls is a text turn)',
    );
    expect(
      await problems(file(['{"id": "r3", "turns": [{"calls": [{"name": "x", "input": [1], "result": null}]}]}'])),
    ).toBe('<file>:1: turns.0.calls.0.input: a JSON object: the arguments the agent sent');
    expect(
      await problems(file(['{"id": "r4", "turns": [{"calls": [{"name": "x", "input": {}, "result": "ok"}]}]}'])),
    ).toBe('<file>:1: turns.0.calls.0.result: an object { text, is_error? }, or null for an unanswered call');
    expect(await problems(file(['{"id": 5, "turns": []}']))).toBe('<file>:1: id: a string naming the run');
    expect(await problems(file(['{"id": "r6", "turns": [{"reply": "hi"}]}']))).toBe(
      '<file>:1: turns.0: a turn: { calls: [...] } or { text: "..." }',
    );
    expect(await problems(file(['not json']))).toMatch(/^<file>:1: one JSON trajectory per line; got "not json"/);
    expect(await problems(file(['[1, 2]']))).toBe('<file>:1: a JSON object {"id", "turns"}; got "[1, 2]"');
    expect(await problems(join(dir, 'missing.jsonl'))).toMatch(/nothing is there$/);
  });
});
