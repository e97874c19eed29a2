import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { type FinishedSweep, openFinishedSweep, readTraces } from '../results/results-reader.js';
import { RUNS_FILE } from '../results/results-files.js';
import { FileUnreadable } from '../results/line-reader.js';
import {
  type IndexProgress,
  indexRuns,
  readFirstRuns,
  RunsChanged,
  type RunsIndex,
  sweepFilesState,
} from '../results/runs-index.js';
import type { StoredTrace } from '../results/trace-schema.js';
import { UserInputError } from '../user-input-error.js';
import { MAX_PAGE, type RunQuery, type RunRow, RunTable, rowOf } from './run-table.js';

/** A results folder the viewer found: a finished sweep, or why it cannot be shown. */
export interface Listed {
  readonly id: number;
  /** Its path from where the viewer was started. */
  readonly name: string;
  readonly sweep: FinishedSweep | undefined;
  readonly problem: string | undefined;
}

/** A listed sweep that could be read. */
export type ReadableSweep = Listed & { sweep: FinishedSweep };

/** Results folders in `paths`: each a sweep itself, or the sweeps one or two levels inside it. */
export function findSweeps(paths: readonly string[], cwd = process.cwd()): Listed[] {
  const dirs: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (existsSync(join(dir, RUNS_FILE))) dirs.push(dir);
    else if (depth > 0)
      for (const name of readdirSync(dir).sort((a, b) => a.localeCompare(b))) {
        const inside = join(dir, name);
        // A folder, or a link to one: statSync follows links.
        if (statSync(inside, { throwIfNoEntry: false })?.isDirectory() === true) visit(inside, depth - 1);
      }
  };
  for (const path of paths) {
    const dir = resolve(cwd, path);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw UserInputError.single(
        path,
        '',
        `a results folder, or a folder holding results folders${path === 'results' ? ' (the default when no folder is given)' : ''}`,
      );
    const before = dirs.length;
    visit(dir, 2);
    if (dirs.length === before)
      throw UserInputError.single(
        path,
        '',
        'a results folder (one holding runs.jsonl, as `spiralbench run --out <dir>` writes), or a folder holding them up to two levels down; none is here',
      );
  }
  return [...new Set(dirs)].map((dir, id) => {
    const name = relative(cwd, dir) || '.';
    try {
      return { id, name, sweep: openFinishedSweep(dir), problem: undefined };
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
      return { id, name, sweep: undefined, problem: error.message };
    }
  });
}

/** A sweep as the list shows it: its cells' size and names, or why it cannot be shown. */
export function described(entry: Listed) {
  const summary = entry.sweep?.summary;
  return {
    id: entry.id,
    name: entry.name,
    ...(summary === undefined
      ? { problem: entry.problem }
      : {
          runs: summary.cells.reduce((sum, cell) => sum + cell.runs, 0),
          model: summary.model,
          scenarios: summary.scenarios.map((scenario) => scenario.id),
          arms: summary.arms.map((arm) => arm.name),
          seeds: summary.seeds,
          finished_at: entry.sweep?.meta?.finished_at ?? null,
        }),
  };
}

/** A sweep the page has opened: its index as it is built, and its traces once read. */
export class Opened {
  /** The sweep as read when this index was started: a sweep run again into its folder is read afresh with it. */
  readonly sweep: FinishedSweep;
  progress: IndexProgress = { bytes: 0, size: 0 };
  ready: RunTable | undefined = undefined;
  traces: Promise<StoredTrace[]> | undefined = undefined;
  /** Why the index could not be built. */
  failed: unknown = undefined;
  /** The sweep's files as they were when the index was started (sweepFilesState). */
  readonly files: string;
  readonly table: Promise<RunTable>;

  constructor(sweep: FinishedSweep, signal: AbortSignal) {
    this.sweep = sweep;
    this.files = sweepFilesState(sweep);
    this.table = indexRuns(
      sweep,
      (progress) => {
        this.progress = progress;
      },
      { signal },
    ).then((index) => (this.ready = new RunTable(index)));
    this.table.catch((error: unknown) => {
      this.failed = error;
    });
  }
}

/** Sweeps whose index is kept, the last opened: a diff's two and a few more. */
const KEPT_INDEXES = 4;

/** The first pages a sweep shows while its index is built: unfiltered, in file order, near the start. */
const FIRST_PAGES = 5000;

/**
 * The sweeps the page has opened, each with its index built in the background on first
 * asking, kept for the last few opened.
 */
export class OpenedSweeps {
  readonly #opened = new Map<number, Opened>();
  /** Aborted when the viewer closes: indexes still being built stop. */
  readonly #signal: AbortSignal;

  constructor(signal: AbortSignal) {
    this.#signal = signal;
  }

  /**
   * A sweep's index, started on first asking and built in the background. One that failed
   * on what the files hold says so at every asking until they change, and is then started
   * afresh at once: a client polling a broken sweep would otherwise have it read whole
   * again every other time. Any other failure (the files changed while read, the system
   * refused) is said once, and started afresh on the next asking.
   */
  open(entry: ReadableSweep): Opened {
    const opened = this.#opened;
    let found = opened.get(entry.id);
    if (found?.failed !== undefined) {
      const { failed } = found;
      const onContent =
        failed instanceof UserInputError && !(failed instanceof RunsChanged) && !(failed instanceof FileUnreadable);
      if (onContent && sweepFilesState(found.sweep) === found.files) throw failed;
      opened.delete(entry.id);
      if (!onContent) throw failed;
      found = undefined;
    }
    if (found === undefined) found = new Opened(openFinishedSweep(entry.sweep.dir), this.#signal);
    // Kept in the order last opened, the oldest let go first: a big sweep's index is some 90 bytes a run.
    opened.delete(entry.id);
    opened.set(entry.id, found);
    // A request already waiting on one let go still gets it; the next asking builds it again.
    for (const id of opened.keys()) if (opened.size > KEPT_INDEXES && id !== entry.id) opened.delete(id);
    return found;
  }

  /** The sweep's traces, read once it is opened. */
  tracesOf(entry: ReadableSweep): Promise<StoredTrace[]> {
    const state = this.open(entry);
    state.traces ??= readTraces(state.sweep).then((traces) => traces ?? []);
    state.traces.catch(() => {
      state.traces = undefined;
    });
    return state.traces;
  }

  /** Lets go of the sweep if `index` is still its index: its file changed, and the next asking indexes it afresh. */
  forgetIndex(entry: Listed, index: RunsIndex): void {
    if (this.#opened.get(entry.id)?.ready?.index === index) this.#opened.delete(entry.id);
  }

  /** Lets go of the sweep if `state` is still how it is opened (see forgetIndex). */
  forget(entry: Listed, state: Opened): void {
    if (this.#opened.get(entry.id) === state) this.#opened.delete(entry.id);
  }
}

/** How far a sweep's index is, and its filters' choices once it is built. */
export function indexState(state: Opened) {
  const { bytes, size } = state.progress;
  return state.ready === undefined
    ? { ready: false, bytes, size }
    : { ready: true, bytes: size, size, runs: state.ready.size, choices: state.ready.choices() };
}

/** Whether `query` asks for a page the file's start answers: unfiltered, in file order, near the start. */
export function isFirstPages(query: RunQuery): boolean {
  const { sort, descending, offset = 0, limit = 50, ...filters } = query;
  return (
    (sort ?? 'seed') === 'seed' &&
    descending !== true &&
    Object.values(filters).every((value) => value === undefined) &&
    offset + Math.min(limit, MAX_PAGE) <= FIRST_PAGES
  );
}

/** A page read from the file's start, while the index is built. */
export function firstPage(sweep: FinishedSweep, query: RunQuery): { total: number; offset: number; rows: RunRow[] } {
  const offset = Math.max(0, query.offset ?? 0);
  const limit = Math.min(MAX_PAGE, Math.max(1, query.limit ?? 50));
  const total = sweep.summary.cells.reduce((sum, cell) => sum + cell.runs, 0);
  return { total, offset, rows: readFirstRuns(sweep, offset, limit).map(rowOf) };
}
