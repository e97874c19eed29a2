import type { StoredRun } from '../results/run-record-schema.js';
import type { RunsIndex } from '../results/runs-index.js';

/** One run as the viewer lists it: what its filters and sorting read, nothing more. */
export interface RunRow {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly verdict: string;
  readonly outcome: string;
  readonly task?: string;
  readonly member?: number;
  readonly tool_calls: number;
  readonly model_calls: number;
  readonly input_tokens: number;
  readonly cost_usd: number | null;
  readonly verdict_reason: string;
  /** Fault kinds the run met (tool faults, model faults, faults in the data), those counted above 0. */
  readonly faults: readonly string[];
  /** Guard events counted above 0. */
  readonly events: readonly string[];
}

/** What a page of the run table asks for: every filter optional, seeds inclusive. */
export interface RunQuery {
  readonly scenario?: string;
  readonly arm?: string;
  readonly verdict?: string;
  readonly outcome?: string;
  readonly task?: string;
  readonly member?: number;
  readonly fault?: string;
  readonly event?: string;
  readonly seedMin?: number;
  readonly seedMax?: number;
  readonly sort?: SortKey;
  readonly descending?: boolean;
  readonly offset?: number;
  readonly limit?: number;
}

export const SORT_KEYS = ['seed', 'tool_calls', 'model_calls', 'input_tokens', 'cost_usd'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** The most rows one page holds: a page is read by a person. */
export const MAX_PAGE = 500;

const met = (counts: Readonly<Record<string, number>> | undefined, prefix = ''): string[] =>
  Object.entries(counts ?? {})
    .filter(([, count]) => count > 0)
    .map(([kind]) => `${prefix}${kind}`);

/** A run as the table lists it. */
export function rowOf(run: StoredRun): RunRow {
  return {
    scenario: run.scenario,
    arm: run.arm,
    seed: run.seed,
    verdict: run.verdict,
    outcome: run.outcome,
    ...(run.task === undefined ? {} : { task: run.task }),
    ...(run.member === undefined ? {} : { member: run.member }),
    tool_calls: run.tool_calls,
    model_calls: run.model_calls,
    input_tokens: run.input_tokens,
    cost_usd: run.cost_usd ?? null,
    verdict_reason: run.verdict_reason,
    faults: [...met(run.faults), ...met(run.model_faults, 'model:'), ...met(run.data_faults, 'data:')],
    events: met(run.events),
  };
}

/** The values each filter can take. */
type Choices = Record<'scenario' | 'arm' | 'verdict' | 'outcome' | 'task' | 'fault' | 'event' | 'member', string[]>;

/** Selections kept, the last asked: paging through one filter does not filter and sort again. */
const KEPT_SELECTIONS = 8;

type NumberColumn = 'seed' | 'toolCalls' | 'modelCalls' | 'inputTokens' | 'cost';
const SORT_COLUMN: Record<SortKey, NumberColumn> = {
  seed: 'seed',
  tool_calls: 'toolCalls',
  model_calls: 'modelCalls',
  input_tokens: 'inputTokens',
  cost_usd: 'cost',
};

/**
 * A sweep's runs as the viewer lists them: filtered and sorted on the index's columns, and a
 * page of them read from runs.jsonl, so a page never carries more than MAX_PAGE runs and a
 * million-run sweep is never held as records.
 *
 * @example
 * const table = new RunTable(await indexRuns(openFinishedSweep('results/latest')));
 * table.page({ arm: 'none', verdict: 'failure', sort: 'tool_calls', descending: true, limit: 20 });
 */
export class RunTable {
  readonly index: RunsIndex;
  readonly #selections = new Map<string, Uint32Array>();
  #choices: Choices | undefined;

  constructor(index: RunsIndex) {
    this.index = index;
  }

  get size(): number {
    return this.index.rows;
  }

  /** The runs a query selects, in its order, and how many there are in all. */
  page(query: RunQuery): { total: number; offset: number; rows: RunRow[] } {
    const selected = this.#select(query);
    const offset = Math.max(0, query.offset ?? 0);
    const limit = Math.min(MAX_PAGE, Math.max(1, query.limit ?? 50));
    return { total: selected.length, offset, rows: this.rows(selected.subarray(offset, offset + limit)) };
  }

  /** The runs at these positions (file order, from 0), read and checked whole. */
  rows(at: ArrayLike<number>): RunRow[] {
    return this.index.read(Array.from(at)).map(rowOf);
  }

  /** The position of a run in the file, or -1. */
  find(scenario: string, arm: string, seed: number): number {
    const { columns } = this.index;
    const s = this.index.codeOf(scenario);
    const a = this.index.codeOf(arm);
    for (let row = 0; row < this.index.rows; row++)
      if (columns.seed[row] === seed && columns.arm[row] === a && columns.scenario[row] === s) return row;
    return -1;
  }

  /** A run's scenario, arm, seed and whether it succeeded, from the index. */
  at(row: number): { scenario: string; arm: string; seed: number; verdict: string } {
    const { columns, strings } = this.index;
    return {
      scenario: strings[columns.scenario[row]!]!,
      arm: strings[columns.arm[row]!]!,
      seed: columns.seed[row]!,
      verdict: strings[columns.verdict[row]!]!,
    };
  }

  #select(query: RunQuery): Uint32Array {
    const key = JSON.stringify({ ...query, offset: undefined, limit: undefined });
    const kept = this.#selections.get(key);
    if (kept !== undefined) return kept;
    const { columns, strings, rows } = this.index;
    const code = (text: string | undefined) => (text === undefined ? -1 : this.index.codeOf(text));
    const [scenario, arm, verdict, outcome, task] = [
      query.scenario,
      query.arm,
      query.verdict,
      query.outcome,
      query.task,
    ].map(code) as [number, number, number, number, number];
    // A fault or event filter is a set of the codes of the sets holding it.
    const holding = (name: string | undefined) =>
      name === undefined
        ? undefined
        : new Set(strings.flatMap((text, at) => (text.split('\n').includes(name) ? [at] : [])));
    const faults = holding(query.fault);
    const events = holding(query.event);
    const { seedMin = Number.NEGATIVE_INFINITY, seedMax = Number.POSITIVE_INFINITY, member } = query;
    const picked = new Uint32Array(rows);
    let count = 0;
    for (let row = 0; row < rows; row++) {
      if (query.scenario !== undefined && columns.scenario[row] !== scenario) continue;
      if (query.arm !== undefined && columns.arm[row] !== arm) continue;
      if (query.verdict !== undefined && columns.verdict[row] !== verdict) continue;
      if (query.outcome !== undefined && columns.outcome[row] !== outcome) continue;
      if (query.task !== undefined && columns.task[row] !== task) continue;
      if (member !== undefined && columns.member[row] !== member) continue;
      if (faults !== undefined && !faults.has(columns.faults[row]!)) continue;
      if (events !== undefined && !events.has(columns.events[row]!)) continue;
      const seed = columns.seed[row]!;
      if (seed < seedMin || seed > seedMax) continue;
      picked[count++] = row;
    }
    const selected = picked.slice(0, count);
    const sortKey = query.sort ?? 'seed';
    // Ties keep the file's order (scenario, arm, seed), so a page is the same every time.
    if (sortKey !== 'seed' || query.descending === true) {
      const column = columns[SORT_COLUMN[sortKey]];
      const sign = query.descending === true ? -1 : 1;
      selected.sort((a, b) => sign * (column[a]! - column[b]!) || a - b);
    }
    this.#selections.set(key, selected);
    if (this.#selections.size > KEPT_SELECTIONS) this.#selections.delete(this.#selections.keys().next().value!);
    return selected;
  }

  /** The values each filter can take, for the page's menus. */
  choices(): Choices {
    // Read once: the index does not change, and every look at the sweep asks for them.
    this.#choices ??= this.#readChoices();
    return this.#choices;
  }

  #readChoices(): Choices {
    const { columns, strings, rows } = this.index;
    const members = new Set<number>();
    for (let row = 0; row < rows; row++) if (columns.member[row]! >= 0) members.add(columns.member[row]!);
    const of = (column: ArrayLike<number>, split = false) => {
      const seen = new Set<number>();
      for (let row = 0; row < rows; row++) seen.add(column[row]!);
      const values = [...seen]
        .filter((at) => at >= 0)
        .flatMap((at) => (split ? strings[at]!.split('\n') : [strings[at]!]));
      return [...new Set(values)].filter((value) => value !== '').sort();
    };
    return {
      scenario: of(columns.scenario),
      arm: of(columns.arm),
      verdict: of(columns.verdict),
      outcome: of(columns.outcome),
      task: of(columns.task),
      fault: of(columns.faults, true),
      event: of(columns.events, true),
      // The persona ensemble's members that played (none without an ensemble).
      member: [...members].sort((a, b) => a - b).map(String),
    };
  }
}
