import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { UserInputError } from '../user-input-error.js';
import type { Arm } from './arms.js';
import type { RunRecord } from './run-record.js';
import type { Shard } from './sweep-plan.js';

/** Beside the run files while a sweep is under way; gone once summary.json is written. */
export const PROGRESS_FILE = 'progress.json';

/** Everything that decides which runs a sweep makes and in what order. */
export interface SweepIdentity {
  readonly scenarios: ReadonlyArray<{ readonly id: string; readonly hash: string }>;
  readonly arms: readonly Arm[];
  readonly seeds: { readonly base: number; readonly count: number };
  readonly sweep_seed: number;
  readonly model: string;
  readonly shard: Shard;
  readonly chunk_size: number;
}

/**
 * How far a sweep got: its first `chunks_done` chunks are in runs.jsonl and runs.csv,
 * which were synced to disk at exactly these sizes before this was written. Anything
 * past them is a chunk cut short by a crash, and a resume cuts it off.
 */
export interface SweepProgress {
  readonly spiralbench: string;
  readonly sweep: SweepIdentity;
  readonly chunks_done: number;
  readonly runs_done: number;
  readonly jsonl_bytes: number;
  readonly csv_bytes: number;
}

/** The progress an interrupted sweep left in `dir`, or null when there is none. */
export function readProgress(dir: string): SweepProgress | null {
  const path = join(dir, PROGRESS_FILE);
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as SweepProgress;
  } catch (error) {
    throw UserInputError.single(
      path,
      '',
      `the progress file of an interrupted sweep, as JSON (${(error as Error).message})`,
    );
  }
}

/**
 * Refuses to resume a different sweep into the same folder: the runs already there would
 * be mixed with runs of another definition. Names every field that differs.
 */
export function checkSameSweep(progress: SweepProgress, identity: SweepIdentity, dir: string): void {
  const path = join(dir, PROGRESS_FILE);
  const fields = Object.keys(identity) as (keyof SweepIdentity)[];
  const differing = fields.filter(
    (field) => JSON.stringify(progress.sweep?.[field]) !== JSON.stringify(identity[field]),
  );
  if (differing.length === 0) return;
  throw new UserInputError(
    differing.map((field) => ({
      source: path,
      field: `sweep.${field}`,
      expected: `the interrupted sweep's ${field} (${shown(field, progress.sweep?.[field])}), got ${shown(field, identity[field])}: resume with the same flags and scenario files`,
    })),
  );
}

/** A field of a sweep's identity in few words: scenarios and arms by name, with a note when only their content differs. */
function shown(field: keyof SweepIdentity, value: unknown): string {
  if (field === 'scenarios' && Array.isArray(value))
    return value
      .map((scenario: { id: string; hash: string }) => `${scenario.id}@${scenario.hash.slice(0, 8)}`)
      .join(', ');
  if (field === 'arms' && Array.isArray(value))
    return value.map((arm: Arm) => `${arm.name}[${arm.guards.map((guard) => guard.guard).join('+')}]`).join(', ');
  return JSON.stringify(value);
}

/**
 * Reads back the runs a sweep finished before it was interrupted, in order, one line at
 * a time (a big sweep's runs.jsonl does not fit in memory twice), stopping at the synced
 * size: whatever a crash left past it is not read.
 */
export async function readFinishedRuns(
  dir: string,
  progress: SweepProgress,
  onRecord: (record: RunRecord) => void,
): Promise<void> {
  const path = join(dir, 'runs.jsonl');
  if (!existsSync(path))
    throw UserInputError.single(
      path,
      '',
      `the runs of the interrupted sweep (${progress.runs_done} of them); the file is gone`,
    );
  const lines = createInterface({
    input: createReadStream(path, { start: 0, end: Math.max(0, progress.jsonl_bytes - 1) }),
    crlfDelay: Infinity,
  });
  let count = 0;
  for await (const line of lines) {
    if (progress.jsonl_bytes === 0 || line === '') continue;
    onRecord(JSON.parse(line) as RunRecord);
    count += 1;
  }
  if (count !== progress.runs_done) {
    throw UserInputError.single(
      path,
      '',
      `${progress.runs_done} finished runs, as ${PROGRESS_FILE} records; found ${count}: the folder was changed since, so start the sweep again without --resume`,
    );
  }
}
