import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { UserInputError } from '../user-input-error.js';
import { checkRunCounts, type FinishedSweep, rangeSweepOf } from './results-reader.js';
import { FileUnreadable, forEachLineSync, readable } from './line-reader.js';
import { SUMMARY_FILE } from './results-files.js';
import { SeedLines } from './seed-lines.js';
import { parseRunLine, type StoredRun } from './run-record-schema.js';
import {
  againstSweep,
  indexRange,
  metGroups,
  metKey,
  type RangeIndex,
  type RangeResult,
  type RangeTask,
  StringTable,
} from './runs-index-range.js';

/** Below this size a runs.jsonl is indexed on the calling thread: starting workers would cost more. */
const WORKERS_FROM_BYTES = 32 << 20;
const WORKER_FILE = new URL('./runs-index-worker.js', import.meta.url);

export interface IndexOptions {
  /**
   * Byte ranges to index apart, each in a worker thread where the build has one (from
   * source, one after another on this thread). @default 1 below 32 MB, else up to 2
   */
  readonly parts?: number;
  /** Stops the workers: the index then fails. */
  readonly signal?: AbortSignal;
}

/** How far an index is: bytes of runs.jsonl read of its size. */
export interface IndexProgress {
  readonly bytes: number;
  readonly size: number;
}

type Columns = Omit<RangeIndex, 'rows' | 'lines' | 'strings'>;
const COLUMN_NAMES = [
  'offset',
  'length',
  'line',
  'scenario',
  'arm',
  'verdict',
  'outcome',
  'task',
  'member',
  'faults',
  'events',
  'seed',
  'toolCalls',
  'modelCalls',
  'inputTokens',
  'cost',
] as const satisfies readonly (keyof Columns)[];
/** Columns holding codes into `strings` (-1 for none). */
const CODED = ['scenario', 'arm', 'verdict', 'outcome', 'task', 'faults', 'events'] as const;

/**
 * A finished sweep's runs.jsonl as columns: the fields a viewer filters and sorts on, for
 * every run in file order, and where each run's line is, so a page of runs is read from the
 * file (and checked whole) without holding a million records. Built by `indexRuns`.
 */
export class RunsIndex {
  readonly rows: number;
  /** Every string the coded columns name; a column's value is its position here. */
  readonly strings: readonly string[];
  readonly columns: Columns;
  readonly #file: string;
  readonly #indexed: FileIdentity;

  constructor(file: string, indexed: FileIdentity, rows: number, strings: readonly string[], columns: Columns) {
    this.#file = file;
    this.#indexed = indexed;
    this.rows = rows;
    this.strings = strings;
    this.columns = columns;
  }

  /** The code of `text` in the coded columns, or -2 when no run holds it (so it matches nothing). */
  codeOf(text: string): number {
    const at = this.strings.indexOf(text);
    return at === -1 ? -2 : at;
  }

  /** Refuses (RunsChanged) a file gone or changed since it was indexed: what the index says is no longer so. */
  checkFile(): void {
    const now = statSync(this.#file, { throwIfNoEntry: false });
    if (now === undefined || !sameFile(now, this.#indexed)) throw new RunsChanged(this.#file, this);
  }

  /**
   * The runs at `rows`, read from the file and checked whole, in the order asked. A file
   * changed since it was indexed is a RunsChanged, never a run read from the wrong bytes.
   */
  read(rows: readonly number[]): StoredRun[] {
    const file = this.#file;
    const { offset, length, line } = this.columns;
    const fd = readable(file, () => openSync(file, 'r'));
    try {
      if (
        !sameFile(
          readable(file, () => fstatSync(fd)),
          this.#indexed,
        )
      )
        throw new RunsChanged(file, this);
      return rows.map((row) => {
        const buffer = Buffer.alloc(length[row]!);
        const got = readable(file, () => readSync(fd, buffer, 0, buffer.length, offset[row]!));
        const text = buffer.toString('utf8');
        // What is there now must be the run the index holds there, field for indexed field.
        if (got !== buffer.length || !this.#holds(row, text)) throw new RunsChanged(file, this);
        return parseRunLine(text, `${file}:${line[row]!}`);
      });
    } finally {
      closeSync(fd);
    }
  }

  /** Whether `text` is a run whose indexed fields are the index's at `row` (a change the file's identity hid is caught here). */
  #holds(row: number, text: string): boolean {
    let run: Record<string, unknown>;
    try {
      run = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return false;
    }
    if (typeof run !== 'object' || run === null) return false;
    const c = this.columns;
    const named = (column: ArrayLike<number>) => (column[row]! < 0 ? undefined : this.strings[column[row]!]);
    const key = (groups: readonly (readonly [unknown, string])[]) => metKey(groups);
    return (
      run.seed === c.seed[row] &&
      run.scenario === named(c.scenario) &&
      run.arm === named(c.arm) &&
      run.verdict === named(c.verdict) &&
      run.outcome === named(c.outcome) &&
      run.task === named(c.task) &&
      (run.member ?? -1) === c.member[row] &&
      run.tool_calls === c.toolCalls[row] &&
      run.model_calls === c.modelCalls[row] &&
      run.input_tokens === c.inputTokens[row] &&
      (run.cost_usd ?? Number.NEGATIVE_INFINITY) === c.cost[row] &&
      key(metGroups(run)) === named(c.faults) &&
      key([[run.events, '']]) === named(c.events)
    );
  }
}

/** A runs.jsonl that is not the one its index was built from: the index is to be built again. */
export class RunsChanged extends UserInputError {
  /** The index that no longer fits its file. */
  readonly index: RunsIndex | undefined;

  constructor(file: string, index?: RunsIndex) {
    super([
      {
        source: file,
        field: '',
        expected: 'the runs.jsonl that was indexed; it changed since (open the sweep again to index it afresh)',
      },
    ]);
    this.index = index;
  }
}

/** What tells one state of a file from another: its inode, size and last change. */
interface FileIdentity {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

const identityOf = ({ ino, size, mtimeMs }: FileIdentity): FileIdentity => ({ ino, size, mtimeMs });
const sameFile = (a: FileIdentity, b: FileIdentity): boolean =>
  a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * The state of the files a sweep's index is read from: runs.jsonl, and summary.json it is
 * checked against. An index that failed on what they hold fails again until this changes.
 */
export function sweepFilesState(sweep: FinishedSweep): string {
  return [sweep.runsFile, join(sweep.dir, SUMMARY_FILE)]
    .map((file) => {
      const now = readable(file, () => statSync(file, { throwIfNoEntry: false }));
      return now === undefined ? 'absent' : `${now.ino}:${now.size}:${now.mtimeMs}`;
    })
    .join(' ');
}

/**
 * Indexes a finished sweep's runs.jsonl: every line parsed and its indexed fields checked
 * (`indexedRunSchema`), each run checked against summary.json as `readRuns` checks it, and
 * the runs counted per cell against summary.json. A big file is split at line ends and
 * read by up to two worker threads. A problem is a UserInputError naming the file's line.
 */
export async function indexRuns(
  sweep: FinishedSweep,
  onProgress: (progress: IndexProgress) => void = () => {},
  options: IndexOptions = {},
): Promise<RunsIndex> {
  const file = sweep.runsFile;
  const before = identityOf(readable(file, () => statSync(file)));
  const { size } = before;
  const rangeSweep = rangeSweepOf(sweep.summary);
  // A big file is read off the caller's thread even on one core: a server keeps answering.
  const big = size >= WORKERS_FROM_BYTES;
  const workers = existsSync(fileURLToPath(WORKER_FILE)) && (big || (options.parts ?? 1) > 1);
  const parts = options.parts ?? (big ? workerCount() : 1);
  const tasks = splitAtLines(file, size, parts).map(([start, end]) => ({ file, start, end, sweep: rangeSweep }));
  const read = new Array<number>(tasks.length).fill(0);
  const progress = (part: number) => (bytes: number) => {
    read[part] = (read[part] ?? 0) + bytes;
    onProgress({ bytes: read.reduce((sum, n) => sum + n, 0), size });
  };
  const results = workers
    ? await Promise.all(tasks.map((task, part) => inWorker(task, progress(part))))
    : tasks.map((task, part) => indexRange(task, progress(part)));
  let lines = 0;
  const ranges: RangeIndex[] = [];
  for (const result of results) {
    if ('unreadable' in result) throw new FileUnreadable(file, new Error(result.unreadable));
    if ('problem' in result) {
      const { line, field, expected } = result.problem;
      throw UserInputError.single(`${file}:${lines + line}`, field, expected);
    }
    ranges.push(shifted(result.index, lines));
    lines += result.index.lines;
  }
  // Written to while it was read: what was read may be of two states of the file.
  if (!sameFile(identityOf(readable(file, () => statSync(file))), before)) throw new RunsChanged(file);
  const index = merged(file, before, ranges);
  checkCellCounts(sweep, index);
  return index;
}

function workerCount(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/** `parts` byte ranges of the file, each starting at a line's first byte. */
function splitAtLines(file: string, size: number, parts: number): [number, number][] {
  const starts = [0];
  if (parts > 1) {
    const fd = readable(file, () => openSync(file, 'r'));
    try {
      const probe = Buffer.allocUnsafe(1 << 16);
      for (let part = 1; part < parts; part++) {
        let at = Math.floor((size * part) / parts);
        for (;;) {
          const got = readable(file, () => readSync(fd, probe, 0, probe.length, at));
          if (got === 0) {
            at = size;
            break;
          }
          const newline = probe.subarray(0, got).indexOf(0x0a);
          if (newline !== -1) {
            at += newline + 1;
            break;
          }
          at += got;
        }
        starts.push(Math.max(at, starts.at(-1)!));
      }
    } finally {
      closeSync(fd);
    }
  }
  return starts.map((start, part) => [start, starts[part + 1] ?? size]);
}

function inWorker(task: RangeTask, progress: (bytes: number) => void, signal?: AbortSignal): Promise<RangeResult> {
  return new Promise((done, fail) => {
    const worker = new Worker(WORKER_FILE, { workerData: task });
    // A viewer stopped mid-index stops its workers: they would hold the process for seconds.
    const stop = () => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    worker.once('exit', () => signal?.removeEventListener('abort', stop));
    worker.on('message', (message: { bytes: number } | { result: RangeResult }) => {
      if ('bytes' in message) progress(message.bytes);
      else done(message.result);
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (code !== 0) fail(new Error(`the index's worker stopped with exit code ${code}`));
    });
  });
}

/** A range with its line numbers counted from the file's start. */
function shifted(range: RangeIndex, before: number): RangeIndex {
  if (before > 0) for (let row = 0; row < range.rows; row++) range.line[row]! += before;
  return range;
}

/** The ranges as one index, their codes renumbered into one list of strings. */
function merged(file: string, indexed: FileIdentity, ranges: readonly RangeIndex[]): RunsIndex {
  if (ranges.length === 1) {
    const [only] = ranges as [RangeIndex];
    const columns = Object.fromEntries(COLUMN_NAMES.map((name) => [name, only[name]])) as unknown as Columns;
    return new RunsIndex(file, indexed, only.rows, only.strings, columns);
  }
  const table = new StringTable();
  const rows = ranges.reduce((sum, range) => sum + range.rows, 0);
  const columns = Object.fromEntries(
    COLUMN_NAMES.map((name) => [name, new (ranges[0]![name].constructor as Float64ArrayConstructor)(rows)]),
  ) as unknown as Columns;
  let at = 0;
  for (const range of ranges) {
    const renumber = range.strings.map((text) => table.code(text));
    for (const name of COLUMN_NAMES) {
      const column = columns[name];
      column.set(range[name], at);
      if (!(CODED as readonly string[]).includes(name)) continue;
      for (let row = at; row < at + range.rows; row++) {
        const value = column[row]!;
        if (value >= 0) column[row] = renumber[value]!;
      }
    }
    at += range.rows;
  }
  return new RunsIndex(file, indexed, rows, table.strings, columns);
}

/** The runs counted per cell must be summary.json's (`checkRunCounts`). */
function checkCellCounts(sweep: FinishedSweep, index: RunsIndex): void {
  const { scenario, arm, seed, line } = index.columns;
  const { strings } = index;
  const byCodes = new Map<number, number>();
  const seeds = new Map<number, SeedLines>();
  const width = strings.length;
  const base = sweep.summary.seeds.base;
  for (let row = 0; row < index.rows; row++) {
    const key = scenario[row]! * width + arm[row]!;
    byCodes.set(key, (byCodes.get(key) ?? 0) + 1);
    let lines = seeds.get(key);
    if (lines === undefined) seeds.set(key, (lines = new SeedLines()));
    // As readRuns refuses it: a run recorded twice.
    const earlier = lines.add(seed[row]! - base, line[row]!);
    if (earlier !== 0)
      throw UserInputError.single(
        `${sweep.runsFile}:${line[row]!}`,
        'seed',
        `a seed not already recorded for scenario '${strings[scenario[row]!]!}', arm '${strings[arm[row]!]!}'; seed ${seed[row]!} is also on line ${earlier}`,
      );
  }
  const found = new Map<string, number>();
  for (const [key, runs] of byCodes) found.set(`${strings[Math.floor(key / width)]!}\0${strings[key % width]!}`, runs);
  checkRunCounts(sweep, found);
}

/**
 * Runs `offset` to `offset + limit` of a sweep's runs.jsonl in file order, read from its
 * start and each checked whole: a first page shown while the index is built.
 */
export function readFirstRuns(sweep: FinishedSweep, offset: number, limit: number): StoredRun[] {
  const file = sweep.runsFile;
  const expected = rangeSweepOf(sweep.summary);
  const cells = new Set(expected.cells);
  const runs: StoredRun[] = [];
  let line = 0;
  let seen = 0;
  forEachLineSync(file, 0, readable(file, () => statSync(file)).size, (text) => {
    line += 1;
    if (text.trim() === '') return undefined;
    if (seen++ < offset) return true;
    const source = `${file}:${line}`;
    const run = parseRunLine(text, source);
    const problem = againstSweep(run, expected, cells);
    if (problem !== undefined) throw UserInputError.single(source, problem.field, problem.expected);
    runs.push(run);
    return runs.length < limit;
  });
  return runs;
}
