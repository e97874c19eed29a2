import { UserInputError } from '../user-input-error.js';
import { parseJson } from './input-problems.js';
import { FileUnreadable, forEachLineSync } from './line-reader.js';
import { OUTCOME_KINDS } from '../loop/outcome.js';
import { DATA_FAULT_KINDS } from '../tools/tool-fault.js';
import { parseIndexedRun, VERDICTS } from './run-record-schema.js';

/** What a range of runs.jsonl is checked against: the sweep's summary.json. */
export interface RangeSweep {
  readonly sweepSeed: number;
  /** `scenario\0arm` of each cell. */
  readonly cells: readonly string[];
  readonly seedBase: number;
  readonly seedCount: number;
}

/** The byte range to index: from a line's first byte to the end of a line (or of the file). */
export interface RangeTask {
  readonly file: string;
  readonly start: number;
  readonly end: number;
  readonly sweep: RangeSweep;
}

/**
 * The indexed fields of the runs in one byte range of runs.jsonl, a column each, the
 * strings as numbers into `strings` (fault kinds and guard events met as one string a
 * set, the names joined by newlines). Typed arrays, so a worker hands them over without a copy.
 */
export interface RangeIndex {
  readonly rows: number;
  /** Lines read, blank ones included: the next range's first line number is this one's plus this. */
  readonly lines: number;
  readonly strings: string[];
  readonly offset: Float64Array;
  readonly length: Uint32Array;
  /** Line number within the range, from 1. */
  readonly line: Uint32Array;
  readonly scenario: Uint32Array;
  readonly arm: Uint32Array;
  readonly verdict: Uint32Array;
  readonly outcome: Uint32Array;
  /** -1: no task. */
  readonly task: Int32Array;
  /** -1: no ensemble member. */
  readonly member: Float64Array;
  readonly faults: Uint32Array;
  readonly events: Uint32Array;
  readonly seed: Float64Array;
  readonly toolCalls: Float64Array;
  readonly modelCalls: Float64Array;
  readonly inputTokens: Float64Array;
  /** -Infinity: no cost recorded. */
  readonly cost: Float64Array;
}

/** A problem found in a range, its line counted within the range (the caller knows where the range starts). */
export interface RangeProblem {
  readonly line: number;
  readonly field: string;
  readonly expected: string;
}

/** The range's index, the first problem in it, or why the file could not be read (a message naming it). */
export type RangeResult =
  | { readonly index: RangeIndex }
  | { readonly problem: RangeProblem }
  | { readonly unreadable: string };

/** Strings by number, each given the next number the first time it is seen. */
export class StringTable {
  readonly strings: string[] = [];
  readonly #codes = new Map<string, number>();

  code(text: string): number {
    let found = this.#codes.get(text);
    if (found === undefined) {
      found = this.strings.length;
      this.#codes.set(text, found);
      this.strings.push(text);
    }
    return found;
  }
}

/** A column that grows as rows come. */
class Column<T extends Float64Array | Uint32Array | Int32Array> {
  #data: T;
  constructor(readonly make: (size: number) => T) {
    this.#data = make(1024);
  }
  set(at: number, value: number): void {
    if (at >= this.#data.length) {
      const grown = this.make(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[at] = value;
  }
  done(rows: number): T {
    return this.#data.slice(0, rows) as T;
  }
}

const f64 = () => new Column((size) => new Float64Array(size));
const u32 = () => new Column((size) => new Uint32Array(size));
const i32 = () => new Column((size) => new Int32Array(size));

/** A run's fault counts as the index keys them: tool faults, then the model's, then the data's. */
export function metGroups(run: Record<string, unknown>): readonly (readonly [unknown, string])[] {
  return [
    [run.faults, ''],
    [run.model_faults, 'model:'],
    [run.data_faults, 'data:'],
  ];
}

/** The names counted above 0 in each of `groups`, each group's names after `prefix`, joined by newlines. */
export function metKey(groups: readonly (readonly [unknown, string])[]): string {
  let key = '';
  for (const [counts, prefix] of groups) {
    if (counts === undefined || counts === null) continue;
    for (const name in counts as Record<string, unknown>)
      if ((counts as Record<string, number>)[name]! > 0) key += key === '' ? prefix + name : `\n${prefix}${name}`;
  }
  return key;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isName = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isCounts = (value: unknown, optional: boolean): boolean => {
  if (value === undefined) return optional;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const name in value) if (!isCount((value as Record<string, unknown>)[name])) return false;
  return true;
};
const VERDICT_NAMES: ReadonlySet<unknown> = new Set(VERDICTS);
const OUTCOME_NAMES: ReadonlySet<unknown> = new Set(OUTCOME_KINDS);

/**
 * Whether a parsed record's indexed fields pass `indexedRunSchema`, checked here by hand
 * because the schema costs five times the parse on a million lines: the same rules, field
 * for field (runs-index.test.ts holds the two against each other), but for a `__proto__`
 * key among counts, which zod drops and this refuses. A record it refuses is read by the
 * schema, whose message names the field (and is indexed if the schema takes it).
 */
export function looksIndexable(run: Record<string, unknown>): boolean {
  return (
    typeof run.sweep_seed === 'number' &&
    Number.isSafeInteger(run.sweep_seed) &&
    isName(run.scenario) &&
    isName(run.arm) &&
    isCount(run.seed) &&
    VERDICT_NAMES.has(run.verdict) &&
    OUTCOME_NAMES.has(run.outcome) &&
    isCount(run.tool_calls) &&
    isCount(run.model_calls) &&
    isCount(run.input_tokens) &&
    (run.cost_usd === undefined ||
      (typeof run.cost_usd === 'number' && Number.isFinite(run.cost_usd) && run.cost_usd >= 0)) &&
    (run.task === undefined || isName(run.task)) &&
    (run.member === undefined || isCount(run.member)) &&
    isCounts(run.faults, false) &&
    isCounts(run.events, false) &&
    isCounts(run.model_faults, true) &&
    (run.data_faults === undefined || isDataFaults(run.data_faults))
  );
}

/** `data_faults` as written: every kind in DATA_FAULT_KINDS counted, and nothing else. */
function isDataFaults(value: unknown): boolean {
  if (!isCounts(value, false)) return false;
  const kinds = Object.keys(value as object);
  return kinds.length === DATA_FAULT_KINDS.length && DATA_FAULT_KINDS.every((kind) => kinds.includes(kind));
}

/**
 * Indexes the runs in `task`'s byte range: each line parsed, its indexed fields checked,
 * and checked against the sweep (its sweep seed, a cell of it, a seed in its range), as
 * `readRuns` checks them. The first problem ends the range. `progress` hears of the bytes read.
 */
export function indexRange(task: RangeTask, progress: (bytes: number) => void = () => {}): RangeResult {
  const { sweep } = task;
  const cells = new Set(sweep.cells);
  const table = new StringTable();
  const code = (text: string): number => table.code(text);
  const columns = {
    offset: f64(),
    length: u32(),
    line: u32(),
    scenario: u32(),
    arm: u32(),
    verdict: u32(),
    outcome: u32(),
    task: i32(),
    member: f64(),
    faults: u32(),
    events: u32(),
    seed: f64(),
    toolCalls: f64(),
    modelCalls: f64(),
    inputTokens: f64(),
    cost: f64(),
  };
  let rows = 0;
  let lines = 0;
  const take = (text: string, at: number, bytes: number): RangeProblem | undefined => {
    lines += 1;
    if (text.trim() === '') return undefined;
    const source = String(lines);
    let run: Record<string, unknown>;
    try {
      const value = parseJson(text, source, 'one JSON run record per line');
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !looksIndexable(value as never))
        parseIndexedRun(text, source);
      run = value as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
      const [first] = error.problems;
      return { line: lines, field: first?.field ?? '', expected: first?.expected ?? error.message };
    }
    const problem = againstSweep(run, sweep, cells);
    if (problem !== undefined) return { line: lines, ...problem };
    columns.offset.set(rows, at);
    columns.length.set(rows, bytes);
    columns.line.set(rows, lines);
    columns.scenario.set(rows, code(run.scenario as string));
    columns.arm.set(rows, code(run.arm as string));
    columns.verdict.set(rows, code(run.verdict as string));
    columns.outcome.set(rows, code(run.outcome as string));
    columns.task.set(rows, run.task === undefined ? -1 : code(run.task as string));
    columns.member.set(rows, run.member === undefined ? -1 : (run.member as number));
    columns.faults.set(rows, code(metKey(metGroups(run))));
    columns.events.set(rows, code(metKey([[run.events, '']])));
    columns.seed.set(rows, run.seed as number);
    columns.toolCalls.set(rows, run.tool_calls as number);
    columns.modelCalls.set(rows, run.model_calls as number);
    columns.inputTokens.set(rows, run.input_tokens as number);
    columns.cost.set(rows, run.cost_usd === undefined ? Number.NEGATIVE_INFINITY : (run.cost_usd as number));
    rows += 1;
    return undefined;
  };

  let problem: RangeProblem | undefined;
  try {
    forEachLineSync(
      task.file,
      task.start,
      task.end,
      (text, at, bytes) => (problem = take(text, at, bytes)) === undefined,
      progress,
    );
  } catch (error) {
    // Said as text, so a worker can hand it over.
    if (error instanceof FileUnreadable) return { unreadable: error.reason };
    throw error;
  }
  if (problem !== undefined) return { problem };
  const index: RangeIndex = {
    rows,
    lines,
    strings: table.strings,
    offset: columns.offset.done(rows),
    length: columns.length.done(rows),
    line: columns.line.done(rows),
    scenario: columns.scenario.done(rows),
    arm: columns.arm.done(rows),
    verdict: columns.verdict.done(rows),
    outcome: columns.outcome.done(rows),
    task: columns.task.done(rows),
    member: columns.member.done(rows),
    faults: columns.faults.done(rows),
    events: columns.events.done(rows),
    seed: columns.seed.done(rows),
    toolCalls: columns.toolCalls.done(rows),
    modelCalls: columns.modelCalls.done(rows),
    inputTokens: columns.inputTokens.done(rows),
    cost: columns.cost.done(rows),
  };
  return { index };
}

/** What is wrong with a run of another sweep (`readRuns` and the index say the same), or undefined. */
export function againstSweep(
  run: Record<string, unknown>,
  sweep: RangeSweep,
  cells: ReadonlySet<string>,
): { field: string; expected: string } | undefined {
  if (run.sweep_seed !== sweep.sweepSeed)
    return {
      field: 'sweep_seed',
      expected: `${sweep.sweepSeed}, the sweep seed in summary.json; got ${String(run.sweep_seed)}: the run is from another sweep`,
    };
  if (!cells.has(`${run.scenario as string}\0${run.arm as string}`))
    return {
      field: 'scenario',
      expected: `a (scenario, arm) cell of summary.json; ${run.scenario as string} · ${run.arm as string} is not one: the run is from another sweep`,
    };
  const seed = run.seed as number;
  if (seed < sweep.seedBase || seed >= sweep.seedBase + sweep.seedCount)
    return {
      field: 'seed',
      expected: `a run seed in ${sweep.seedBase}..${sweep.seedBase + sweep.seedCount - 1}, as summary.json records; got ${seed}: the run is from another sweep`,
    };
  return undefined;
}
