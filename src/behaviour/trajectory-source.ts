import { existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { RUNS_FILE, SUMMARY_FILE } from '../results/results-files.js';
import { UserInputError } from '../user-input-error.js';
import { readOtlpTrajectories } from './otlp-trajectories.js';
import {
  type Coverage,
  type LabelledTrajectory,
  readResultsTrajectories,
  type RunFilter,
} from './results-trajectories.js';
import { readTrajectoryFile } from './trajectory-file.js';

/** What a path held: a results folder (runs with arms and scenarios), a trajectory file, or an OTLP trace file. */
export type SourceKind = 'results' | 'trajectories' | 'otlp';

export interface ReadOptions {
  /** Only these runs (a results folder's arm or scenario; a file has neither). */
  readonly filter?: RunFilter;
  /** Called after each run replayed from a results folder. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ReadSummary extends Coverage {
  readonly kind: SourceKind;
}

/**
 * Streams the trajectories at `path` to `onTrajectory`, one run at a time: a results folder
 * written by `spiralbench run` (or its runs.jsonl or summary.json), a trajectory JSONL file
 * (trajectory.ts), or an OTLP/JSON trace file whose tool spans carry their arguments and
 * results. Anything else is a UserInputError saying what was expected.
 *
 * @example
 * const tally = emptyTally();
 * await readTrajectories('results/nightly', ({ trajectory }) => tallyTrajectory(tally, trajectory));
 */
export async function readTrajectories(
  path: string,
  onTrajectory: (labelled: LabelledTrajectory) => void,
  options: ReadOptions = {},
): Promise<ReadSummary> {
  const kind = sourceKind(path);
  if (kind === 'results') {
    const coverage = await readResultsTrajectories(path, onTrajectory, options.filter, options.onProgress);
    return { kind, ...coverage };
  }
  if (options.filter?.arm !== undefined || options.filter?.scenario !== undefined)
    throw UserInputError.single(path, '', 'a results folder, to pick runs by arm or scenario; a file has neither');
  const read =
    kind === 'otlp'
      ? await readOtlpTrajectories(path, (trajectory) => onTrajectory({ trajectory }))
      : await readTrajectoryFile(path, (trajectory) => onTrajectory({ trajectory }));
  return { kind, read, runs: read };
}

const EXPECTED =
  'a results folder (spiralbench run --out), a trajectory JSONL file, or an OTLP/JSON trace file (docs/behaviour.md)';

/** Which kind of source `path` is, by what it holds. */
export function sourceKind(path: string): SourceKind {
  if (!existsSync(path)) throw UserInputError.single(path, '', `${EXPECTED}; nothing is there`);
  if (statSync(path).isDirectory() || [RUNS_FILE, SUMMARY_FILE].includes(basename(path))) return 'results';
  const head = fileHead(path, 4096);
  return /^\s*\{\s*"resourceSpans"/.test(head) ? 'otlp' : 'trajectories';
}

function fileHead(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
