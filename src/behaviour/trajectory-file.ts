import { existsSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { parseJson, preview } from '../results/input-problems.js';
import { forEachLine } from '../results/line-reader.js';
import { UserInputError } from '../user-input-error.js';
import { type Trajectory, trajectorySchema } from './trajectory.js';

const WHAT = 'a trajectory file: JSONL, one run a line, {"id": "...", "turns": [...]} (docs/behaviour.md)';

/**
 * Streams a trajectory JSONL file (trajectory.ts) to `onTrajectory`, one run at a time, so
 * a million runs are never held at once. A bad line is a UserInputError naming the file,
 * the line and the field, e.g. `runs.jsonl:3: turns.0.calls.1.input: a JSON object ...`.
 */
export async function readTrajectoryFile(
  file: string,
  onTrajectory: (trajectory: Trajectory, line: number) => void,
): Promise<number> {
  if (!existsSync(file)) throw UserInputError.single(file, '', `${WHAT}; nothing is there`);
  if (statSync(file).isDirectory()) throw UserInputError.single(file, '', `${WHAT}; this is a folder`);
  let runs = 0;
  await forEachLine(file, (line, lineNumber) => {
    onTrajectory(parseTrajectoryLine(line, `${file}:${lineNumber}`), lineNumber);
    runs += 1;
  });
  return runs;
}

/** One line of a trajectory file, checked; `source` is `file:line`. */
export function parseTrajectoryLine(line: string, source: string): Trajectory {
  const value = parseJson(line, source, 'one JSON trajectory per line');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw UserInputError.single(source, '', `a JSON object {"id", "turns"}; got ${preview(line)}`);
  const parsed = trajectorySchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UserInputError(
    parsed.error.issues
      .slice(0, 10)
      .flatMap((issue) => turnIssues(issue, value).map((found) => ({ source, ...found }))),
  );
}

type Issue = z.core.$ZodIssue;

/**
 * A turn that fails both shapes gets zod's "matches neither" issue; the turn's own keys
 * say which shape was meant (`calls` or `text`), so that shape's issues are the ones shown,
 * down to the field (`turns.3.calls.0.input`).
 */
function turnIssues(issue: Issue, value: unknown): Array<{ field: string; expected: string }> {
  const path = issue.path.map(String);
  if (issue.code === 'invalid_union' && path.length === 2 && path[0] === 'turns') {
    const turn = (value as { turns: unknown[] }).turns[Number(path[1])];
    const meant =
      typeof turn === 'object' && turn !== null ? ('calls' in turn ? 0 : 'text' in turn ? 1 : undefined) : undefined;
    const branch = meant === undefined ? undefined : issue.errors[meant];
    if (branch !== undefined && branch.length > 0)
      return branch.map((inner) => ({
        field: [...path, ...inner.path.map(String)].join('.'),
        expected: inner.message,
      }));
  }
  return [{ field: path.join('.'), expected: issue.message }];
}

/** One trajectory as a line of a trajectory file (without the newline). */
export function trajectoryLine(trajectory: Trajectory): string {
  return JSON.stringify(trajectory);
}
