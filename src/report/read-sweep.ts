import { openFinishedSweep, readRuns, type FinishedSweep } from '../results/results-reader.js';
import type { StoredEnsemble, StoredSummary } from '../results/summary-schema.js';

/** What `compare` needs of one (scenario, arm) cell of a sweep, and nothing more. */
export interface SweepCell {
  readonly scenario: string;
  readonly arm: string;
  /** The scenario cannot be completed, so asking for help is the right outcome (from summary.json). */
  readonly impossible: boolean;
  readonly trials: number;
  readonly successes: number;
  readonly escalated: number;
  /** Per run, in file order. */
  readonly toolCalls: Float64Array;
  readonly inputTokens: Float64Array;
  readonly outputTokens: Float64Array;
  /** Per run, in file order: its run seed, so two arms' runs pair up by seed. */
  readonly seeds: Float64Array;
  /** Per run: the persona ensemble member that played the model (0 in a sweep without an ensemble). */
  readonly members: Int32Array;
  /** Per run: 1 when it reached the right outcome (success, or an escalation where the scenario is impossible). */
  readonly right: Uint8Array;
  /** Per run: 1 when its verdict is harmful (a duplicated or forbidden write). */
  readonly harmful: Uint8Array;
  /** Guard events recorded by the cell's runs (each record's `events`), summed by event type; types never seen are absent. */
  readonly events: Readonly<Record<string, number>>;
  /**
   * Dollars the cell's runs cost, each call priced by the model that answered it (records'
   * `cost_usd`: a fallback or a summary model at its own price); null when a record has no
   * `cost_usd` (results written before it was recorded).
   */
  readonly costUsd: number | null;
}

/** A finished sweep's runs, read back from disk into per-cell columns. */
export interface SweepRuns {
  /** The path as given. */
  readonly path: string;
  /** The runs.jsonl that was read. */
  readonly runsFile: string;
  readonly runs: number;
  /** Cells in order of first appearance in runs.jsonl (the sweep's own order). */
  readonly cells: readonly SweepCell[];
  /** Model names found in the runs, in order of first appearance. */
  readonly models: readonly string[];
  /** The persona ensemble the sweep ran across (summary.json); undefined without one. */
  readonly ensemble: StoredEnsemble | undefined;
  /** Which slice of a sweep this folder holds (`run --shard`); null for a whole sweep. */
  readonly shard: StoredSummary['shard'];
  /** Each scenario's id with the hash of its file as the sweep ran it. */
  readonly scenarioHashes: ReadonlyMap<string, string>;
}

const COUNT_FIELDS = ['tool_calls', 'input_tokens', 'output_tokens'] as const;

interface CellBuilder {
  readonly scenario: string;
  readonly arm: string;
  successes: number;
  escalated: number;
  readonly seeds: Map<number, number>;
  readonly columns: Record<(typeof COUNT_FIELDS)[number], number[]>;
  readonly members: number[];
  readonly right: number[];
  readonly harmful: number[];
  readonly events: Record<string, number>;
  costUsd: number | null;
}

/**
 * Reads a finished sweep folder (`results/<name>/`, or its runs.jsonl or summary.json)
 * into per-(scenario, arm) cells, line by line. The folder must be whole: an interrupted,
 * cut-short or mixed sweep is a UserInputError naming the file, the line and what was
 * expected there (see results/results-reader.ts), so a gate never passes on part of one.
 *
 * @example
 * const sweep = await readSweep('results/baseline');
 * sweep.cells[0]?.successes;
 */
export async function readSweep(path: string): Promise<SweepRuns> {
  return readSweepRuns(openFinishedSweep(path));
}

/** The runs of a sweep already opened, as per-cell columns. */
export async function readSweepRuns(sweep: FinishedSweep): Promise<SweepRuns> {
  const impossible = new Set(sweep.summary.scenarios.filter((entry) => entry.impossible).map((entry) => entry.id));
  const cells = new Map<string, CellBuilder>();
  const models: string[] = [];
  let runs = 0;
  await readRuns(sweep, (record, { line }) => {
    const key = JSON.stringify([record.scenario, record.arm]);
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = {
        scenario: record.scenario,
        arm: record.arm,
        successes: 0,
        escalated: 0,
        seeds: new Map(),
        columns: { tool_calls: [], input_tokens: [], output_tokens: [] },
        members: [],
        right: [],
        harmful: [],
        events: {},
        costUsd: 0,
      };
      cells.set(key, cell);
    }
    // readRuns refused a seed read twice: each is here once.
    cell.seeds.set(record.seed, line);
    if (record.verdict === 'success') cell.successes += 1;
    if (record.verdict === 'escalated') cell.escalated += 1;
    for (const field of COUNT_FIELDS) cell.columns[field].push(record[field]);
    cell.members.push(record.member ?? 0);
    const right = record.verdict === 'success' || (record.verdict === 'escalated' && impossible.has(record.scenario));
    cell.right.push(right ? 1 : 0);
    cell.harmful.push(record.verdict === 'harmful' ? 1 : 0);
    cell.costUsd = cell.costUsd === null || record.cost_usd === undefined ? null : cell.costUsd + record.cost_usd;
    for (const [type, n] of Object.entries(record.events)) if (n > 0) cell.events[type] = (cell.events[type] ?? 0) + n;
    if (!models.includes(record.model)) models.push(record.model);
    runs += 1;
  });
  return {
    path: sweep.path,
    runsFile: sweep.runsFile,
    runs,
    models,
    ensemble: sweep.summary.ensemble,
    shard: sweep.summary.shard,
    scenarioHashes: new Map(sweep.summary.scenarios.map((scenario) => [scenario.id, scenario.hash])),
    cells: [...cells.values()].map((cell) => ({
      scenario: cell.scenario,
      arm: cell.arm,
      impossible: impossible.has(cell.scenario),
      trials: cell.seeds.size,
      successes: cell.successes,
      escalated: cell.escalated,
      toolCalls: Float64Array.from(cell.columns.tool_calls),
      inputTokens: Float64Array.from(cell.columns.input_tokens),
      outputTokens: Float64Array.from(cell.columns.output_tokens),
      seeds: Float64Array.from(cell.seeds.keys()),
      members: Int32Array.from(cell.members),
      right: Uint8Array.from(cell.right),
      harmful: Uint8Array.from(cell.harmful),
      events: cell.events,
      costUsd: cell.costUsd,
    })),
  };
}
