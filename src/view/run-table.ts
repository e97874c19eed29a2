import { type FinishedSweep, readRuns } from '../results/results-reader.js';
import type { StoredRun } from '../results/run-record-schema.js';

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

function rowOf(run: StoredRun): RunRow {
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

/**
 * A sweep's runs, read once and held as rows: filtered, sorted and paged on the server,
 * so a page never carries more than MAX_PAGE runs whatever the sweep's size.
 *
 * @example
 * const table = await RunTable.load(openFinishedSweep('results/latest'));
 * table.page({ arm: 'none', verdict: 'failure', sort: 'tool_calls', descending: true, limit: 20 });
 */
export class RunTable {
  readonly rows: readonly RunRow[];

  private constructor(rows: readonly RunRow[]) {
    this.rows = rows;
  }

  static async load(sweep: FinishedSweep): Promise<RunTable> {
    const rows: RunRow[] = [];
    await readRuns(sweep, (run) => rows.push(rowOf(run)));
    return new RunTable(rows);
  }

  /** The runs a query selects, in its order, and how many there are in all. */
  page(query: RunQuery): { total: number; offset: number; rows: RunRow[] } {
    const keep = (row: RunRow): boolean =>
      (query.scenario === undefined || row.scenario === query.scenario) &&
      (query.arm === undefined || row.arm === query.arm) &&
      (query.verdict === undefined || row.verdict === query.verdict) &&
      (query.outcome === undefined || row.outcome === query.outcome) &&
      (query.task === undefined || row.task === query.task) &&
      (query.member === undefined || row.member === query.member) &&
      (query.fault === undefined || row.faults.includes(query.fault)) &&
      (query.event === undefined || row.events.includes(query.event)) &&
      (query.seedMin === undefined || row.seed >= query.seedMin) &&
      (query.seedMax === undefined || row.seed <= query.seedMax);
    const selected = this.rows.filter(keep);
    const key = query.sort ?? 'seed';
    const sign = query.descending === true ? -1 : 1;
    // Ties keep the file's order (scenario, arm, seed), so a page is the same every time.
    if (key !== 'seed' || query.descending === true)
      selected.sort((a, b) => sign * ((a[key] ?? Number.NEGATIVE_INFINITY) - (b[key] ?? Number.NEGATIVE_INFINITY)));
    const offset = Math.max(0, query.offset ?? 0);
    const limit = Math.min(MAX_PAGE, Math.max(1, query.limit ?? 50));
    return { total: selected.length, offset, rows: selected.slice(offset, offset + limit) };
  }

  /** The values each filter can take, for the page's menus. */
  choices(): Record<'scenario' | 'arm' | 'verdict' | 'outcome' | 'task' | 'fault' | 'event', string[]> {
    const of = (pick: (row: RunRow) => readonly (string | undefined)[]) =>
      [
        ...new Set(this.rows.flatMap((row) => pick(row).filter((value): value is string => value !== undefined))),
      ].sort();
    return {
      scenario: of((row) => [row.scenario]),
      arm: of((row) => [row.arm]),
      verdict: of((row) => [row.verdict]),
      outcome: of((row) => [row.outcome]),
      task: of((row) => [row.task]),
      fault: of((row) => row.faults),
      event: of((row) => row.events),
    };
  }
}
