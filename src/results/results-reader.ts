import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserInputError } from '../user-input-error.js';
import { refuseIfLocked } from './folder-lock.js';
import { checkFormatVersion } from './format-version.js';
import { parseJson, parseWith } from './input-problems.js';
import { forEachLine } from './line-reader.js';
import { metaSchema, type StoredMeta } from './meta-schema.js';
import { progressSchema, type StoredProgress } from './progress-schema.js';
import { META_FILE, PROGRESS_FILE, RUNS_FILE, SUMMARY_FILE, TRACES_FILE } from './results-files.js';
import { parseRunLine, type StoredRun } from './run-record-schema.js';
import { againstSweep, type RangeSweep } from './runs-index-range.js';
import { SeedLines } from './seed-lines.js';
import { SERVED_MODEL } from './served-model.js';
import { summarySchema, type StoredSummary } from './summary-schema.js';
import { traceSchema, type StoredTrace } from './trace-schema.js';

// Saved results are read as untrusted input: every file is checked against its schema,
// and a bad one is named with the line, the field and what was expected there.

/**
 * A finished sweep folder, its summary.json and meta.json read and checked; its runs are read on demand.
 *
 * @example
 * const sweep: FinishedSweep = openFinishedSweep('results/nightly');
 * for (const cell of sweep.summary.cells) console.log(cell.scenario, cell.arm, cell.runs);
 */
export interface FinishedSweep {
  /** The path as given. */
  readonly path: string;
  /** The folder, absolute. */
  readonly dir: string;
  /** The folder's name, e.g. `baseline` for results/baseline. */
  readonly name: string;
  readonly runsFile: string;
  readonly summary: StoredSummary;
  /** Absent in folders written before meta.json was. */
  readonly meta: StoredMeta | undefined;
}

const SWEEP_FOLDER = 'a sweep folder holding runs.jsonl (written by `spiralbench run --out <dir>`)';

/**
 * Opens a finished sweep: a folder (or the runs.jsonl or summary.json in one) that no
 * process is writing, in a format this version reads, not interrupted, with a valid
 * summary.json. Anything else is a UserInputError saying what is wrong and what to do.
 *
 * @example
 * const sweep = openFinishedSweep('results/baseline');
 * await readRuns(sweep, (run) => tally(run));
 */
export function openFinishedSweep(path: string): FinishedSweep {
  if (!existsSync(path)) throw UserInputError.single(path, '', `${SWEEP_FOLDER}; nothing is there`);
  let dir = path;
  if (!statSync(path).isDirectory()) {
    if (![RUNS_FILE, SUMMARY_FILE].includes(basename(path)))
      throw UserInputError.single(
        path,
        '',
        `${SWEEP_FOLDER}, or the runs.jsonl or summary.json in one; this is another file`,
      );
    dir = dirname(path);
  }
  // The version first: a newer layout may differ in every other file.
  const meta = readMeta(dir);
  refuseIfLocked(dir, 'a finished sweep folder');
  const progress = join(dir, PROGRESS_FILE);
  if (existsSync(progress)) {
    const { done, model } = interruptedRuns(progress);
    const after = done === undefined ? '' : ` after ${done} runs`;
    throw UserInputError.single(
      dir,
      '',
      model === SERVED_MODEL
        ? `this served sweep was stopped${after} (its progress.json is there), so it has no results to read, and serve cannot continue one: serve the sweep again with --overwrite, or into another folder, and let every run end`
        : `this sweep was interrupted${after} (its progress.json is there), so it has no results to read yet: finish it with \`spiralbench run\`, its flags and --resume`,
    );
  }
  const runsFile = join(dir, RUNS_FILE);
  if (!existsSync(runsFile)) throw UserInputError.single(path, '', `${SWEEP_FOLDER}; the folder has no runs.jsonl`);
  const summaryFile = join(dir, SUMMARY_FILE);
  if (!existsSync(summaryFile))
    throw UserInputError.single(
      path,
      '',
      'a finished sweep folder holding summary.json; this one has none, so its sweep did not finish (run it again, or `spiralbench merge` its shards)',
    );
  const summary = parseWith(summarySchema, readJson(summaryFile, 'a JSON summary'), summaryFile);
  return { path, dir: resolve(dir), name: basename(resolve(dir)), runsFile, summary, meta };
}

/** Where a run was read: its line as written (for a merge to copy byte for byte), its number, and `file:line`. */
export interface RunLine {
  readonly text: string;
  readonly line: number;
  readonly source: string;
}

/**
 * Streams the runs of a finished sweep to `onRun`, each checked against the run record
 * schema and against summary.json: a run of another sweep (sweep seed, cell, seed out of
 * range, a seed recorded twice) is refused on its line, and at the end the runs counted
 * per cell must be the runs summary.json counts, so a runs.jsonl cut short or padded is never read as whole.
 *
 * @example
 * const failed: number[] = [];
 * await readRuns(openFinishedSweep('results/nightly'), (run) => {
 *   if (run.verdict !== 'success') failed.push(run.seed);
 * });
 */
export async function readRuns(
  sweep: FinishedSweep,
  onRun: (run: StoredRun, at: RunLine) => void = () => {},
): Promise<void> {
  const { summary, runsFile } = sweep;
  const found = new Map<string, number>();
  const seeds = new Map<string, SeedLines>();
  const expected = rangeSweepOf(summary);
  const cells = new Set(expected.cells);
  await forEachLine(runsFile, (line, lineNumber) => {
    const source = `${runsFile}:${lineNumber}`;
    const run = parseRunLine(line, source);
    const problem = againstSweep(run, expected, cells);
    if (problem !== undefined) throw UserInputError.single(source, problem.field, problem.expected);
    const key = cellKey(run.scenario, run.arm);
    const runs = found.get(key);
    found.set(key, (runs ?? 0) + 1);
    let lines = seeds.get(key);
    if (lines === undefined) seeds.set(key, (lines = new SeedLines()));
    // A run counted twice would shrink every interval: refused rather than a guess at which copy is right.
    const earlier = lines.add(run.seed - expected.seedBase, lineNumber);
    if (earlier !== 0)
      throw UserInputError.single(
        source,
        'seed',
        `a seed not already recorded for scenario '${run.scenario}', arm '${run.arm}'; seed ${run.seed} is also on line ${earlier}`,
      );
    onRun(run, { text: line, line: lineNumber, source });
  });
  checkRunCounts(sweep, found);
}

/**
 * The runs found per cell (keyed `scenario\0arm`) must be the runs summary.json counts, so
 * a runs.jsonl cut short or padded is never read as whole.
 */
export function checkRunCounts(sweep: FinishedSweep, found: ReadonlyMap<string, number>): void {
  const { summary, runsFile } = sweep;
  const want = summary.cells.reduce((sum, cell) => sum + cell.runs, 0);
  const got = [...found.values()].reduce((sum, n) => sum + n, 0);
  const changed = 'the file was cut short or changed after the sweep finished';
  if (got !== want)
    throw UserInputError.single(runsFile, '', `${want} runs, as summary.json records; found ${got}: ${changed}`);
  for (const cell of summary.cells) {
    const runs = found.get(cellKey(cell.scenario, cell.arm)) ?? 0;
    if (runs !== cell.runs)
      throw UserInputError.single(
        runsFile,
        '',
        `${cell.runs} runs of ${cell.scenario} · ${cell.arm}, as summary.json records; found ${runs}: ${changed}`,
      );
  }
}

/** What each run of a sweep is checked against, from its summary.json. */
export function rangeSweepOf(summary: StoredSummary): RangeSweep {
  return {
    sweepSeed: summary.sweep_seed,
    cells: summary.cells.map((cell) => cellKey(cell.scenario, cell.arm)),
    seedBase: summary.seeds.base,
    seedCount: summary.seeds.count,
  };
}

/** traces.jsonl of a finished sweep, each line checked; undefined when the sweep has none (a real model's). */
export async function readTraces(sweep: FinishedSweep): Promise<StoredTrace[] | undefined> {
  const file = join(sweep.dir, TRACES_FILE);
  if (!existsSync(file)) return undefined;
  const traces: StoredTrace[] = [];
  await forEachLine(file, (line, lineNumber) => {
    const source = `${file}:${lineNumber}`;
    traces.push(parseWith(traceSchema, parseJson(line, source, 'one JSON trace per line'), source));
  });
  return traces;
}

/** meta.json, checked, or undefined when the folder has none; a format this version cannot read is refused. */
export function readMeta(dir: string): StoredMeta | undefined {
  const file = join(dir, META_FILE);
  if (!existsSync(file)) return undefined;
  const value = readJson(file, 'a JSON object of where and when the sweep ran');
  const version = (value as { format_version?: unknown } | null)?.format_version;
  if (typeof version === 'number') checkFormatVersion(version, file);
  return parseWith(metaSchema, value, file);
}

/** The progress an interrupted sweep left in `dir`, checked, or null when there is none. */
export function readProgress(dir: string): StoredProgress | null {
  const file = join(dir, PROGRESS_FILE);
  if (!existsSync(file)) return null;
  const progress = parseWith(
    progressSchema,
    readJson(file, 'the progress file of an interrupted sweep, as JSON'),
    file,
  );
  checkFormatVersion(progress.format_version, file);
  return progress;
}

/**
 * Reads back the runs an interrupted sweep finished, in order, stopping at the synced
 * size: whatever a crash left past it is not read. A damaged line is named by file and
 * line; a count other than progress.json's means the folder was changed since.
 */
export async function readInterruptedRuns(
  dir: string,
  progress: StoredProgress,
  onRun: (run: StoredRun) => void,
): Promise<void> {
  const file = join(dir, RUNS_FILE);
  if (!existsSync(file))
    throw UserInputError.single(
      file,
      '',
      `the runs of the interrupted sweep (${progress.runs_done} of them); the file is gone`,
    );
  let count = 0;
  await forEachLine(
    file,
    (line, lineNumber) => {
      onRun(parseRunLine(line, `${file}:${lineNumber}`));
      count += 1;
    },
    progress.jsonl_bytes,
  );
  if (count !== progress.runs_done)
    throw UserInputError.single(
      file,
      '',
      `${progress.runs_done} finished runs, as ${PROGRESS_FILE} records; found ${count}: the folder was changed since, so start the sweep again with --overwrite`,
    );
}

function cellKey(scenario: string, arm: string): string {
  return `${scenario}\u0000${arm}`;
}

/** The runs an interrupted sweep's progress.json counts, and its model, if they can be read. */
function interruptedRuns(file: string): { readonly done?: number; readonly model?: string } {
  try {
    const progress = JSON.parse(readFileSync(file, 'utf8')) as {
      runs_done?: unknown;
      sweep?: { model?: unknown };
    } | null;
    const done = progress?.runs_done;
    const model = progress?.sweep?.model;
    return {
      ...(typeof done === 'number' ? { done } : {}),
      ...(typeof model === 'string' ? { model } : {}),
    };
  } catch {
    return {};
  }
}

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw UserInputError.single(file, '', `a readable file (${(error as Error).message})`);
  }
  return parseJson(text, file, what);
}
