import { OUTCOME_KINDS } from '../loop/outcome.js';
import type { CellSummary, TaskTally } from '../stats/cell-summary.js';
import { rowIndexOfSeed } from '../scenarios/dataset.js';
import { describe } from '../stats/descriptive.js';
import { wilson } from '../stats/wilson.js';
import { PACKED_WIDTH, VERDICT_KINDS } from './packed-metrics.js';

export type TraceReason = 'worst_tool_calls' | 'failure' | 'escalated' | 'harmful';
export interface TraceCandidate {
  readonly seed: number;
  readonly reasons: readonly TraceReason[];
}

/** A growable column of non-negative integers (4 bytes a run). */
class Column {
  #values = new Uint32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.#values.length) {
      const grown = new Uint32Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.length++] = value;
  }

  view(): Uint32Array {
    return this.#values.subarray(0, this.length);
  }
}

const COLUMN_FIELDS = [
  'tool_calls',
  'tool_executions',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'virtual_ms',
] as const;

/**
 * Streams a cell's runs into counts and columns. Counts take constant memory; exact
 * quantiles need every value, kept as 4-byte integers (24 bytes a run), so a sweep's
 * memory grows by kilobytes, not by records.
 */
export class CellAccumulator {
  readonly scenario: string;
  readonly arm: string;
  readonly #impossible: boolean;
  readonly #verdicts = new Array<number>(VERDICT_KINDS.length).fill(0);
  readonly #outcomes = new Array<number>(OUTCOME_KINDS.length).fill(0);
  readonly #columns = COLUMN_FIELDS.map(() => new Column());
  readonly #seeds = new Column();
  readonly #verdictOf = new Column();
  #duplicates = 0;
  /** Millionths of a dollar. */
  #costMicros = 0;
  #runs = 0;
  /** A dataset scenario's task ids, in row order; run seed s played task (s − 1) mod their count. */
  readonly #tasks: readonly string[] | undefined;
  /** Each run's task (its row), for a dataset scenario's cell. */
  readonly #taskOf = new Column();

  constructor(scenario: string, arm: string, impossible: boolean, tasks?: readonly string[]) {
    this.scenario = scenario;
    this.arm = arm;
    this.#impossible = impossible;
    this.#tasks = tasks;
  }

  /** Add `rows` packed runs (see packed-metrics.ts). */
  addPacked(packed: Float64Array, rows = packed.length / PACKED_WIDTH): void {
    for (let row = 0; row < rows; row++) {
      const at = row * PACKED_WIDTH;
      this.#verdicts[packed[at] as number]! += 1;
      this.#outcomes[packed[at + 1] as number]! += 1;
      for (let c = 0; c < COLUMN_FIELDS.length; c++) this.#columns[c]!.push(packed[at + 2 + c] as number);
      this.#duplicates += packed[at + 8] as number;
      this.#costMicros += packed[at + 10] as number;
      this.#seeds.push(packed[at + 9] as number);
      // From the whole seed: the seeds column keeps 32 bits, and a seed may be past them.
      if (this.#tasks !== undefined) this.#taskOf.push(rowIndexOfSeed(packed[at + 9] as number, this.#tasks.length));
      this.#verdictOf.push(packed[at] as number);
      this.#runs += 1;
    }
  }

  /**
   * The runs worth a timeline: the `perKind` worst by tool calls (ties to the lower
   * seed) and the first `perKind` failures, escalations and harmful runs by seed. Each
   * shard's candidates include its share of the global ones, so a merge can select from
   * the shards' traces. Sorted by seed.
   */
  traceCandidates(perKind = 3): TraceCandidate[] {
    const seeds = this.#seeds.view();
    const calls = this.#columns[COLUMN_FIELDS.indexOf('tool_calls')]!.view();
    const verdicts = this.#verdictOf.view();
    const reasons = new Map<number, TraceReason[]>();
    const add = (seed: number, reason: TraceReason) => reasons.set(seed, [...(reasons.get(seed) ?? []), reason]);
    // One pass: rows arrive in seed order, so "first" is row order and a strictly greater
    // count is needed to displace a worst run (ties keep the lower seed).
    const worst: number[] = [];
    const firsts: Record<'failure' | 'escalated' | 'harmful', number[]> = { failure: [], escalated: [], harmful: [] };
    for (let row = 0; row < seeds.length; row++) {
      const count = calls[row] as number;
      if (worst.length < perKind || count > (calls[worst.at(-1)!] as number)) {
        let at = worst.length;
        while (at > 0 && (calls[worst[at - 1]!] as number) < count) at -= 1;
        worst.splice(at, 0, row);
        if (worst.length > perKind) worst.pop();
      }
      const verdict = VERDICT_KINDS[verdicts[row] as number];
      if (verdict === 'failure' || verdict === 'escalated' || verdict === 'harmful') {
        if (firsts[verdict].length < perKind) firsts[verdict].push(row);
      }
    }
    for (const row of worst) add(seeds[row] as number, 'worst_tool_calls');
    for (const kind of ['failure', 'escalated', 'harmful'] as const)
      for (const row of firsts[kind]) add(seeds[row] as number, kind);
    return [...reasons].sort(([a], [b]) => a - b).map(([seed, why]) => ({ seed, reasons: why }));
  }

  summary(): CellSummary {
    const count = (kind: string) => this.#verdicts[VERDICT_KINDS.indexOf(kind as never)] ?? 0;
    const column = (field: (typeof COLUMN_FIELDS)[number]) =>
      describe(this.#columns[COLUMN_FIELDS.indexOf(field)]!.view());
    const successes = count('success');
    return {
      scenario: this.scenario,
      arm: this.arm,
      runs: this.#runs,
      success: wilson(successes, this.#runs),
      right_outcome: wilson(successes + (this.#impossible ? count('escalated') : 0), this.#runs),
      verdicts: Object.fromEntries(VERDICT_KINDS.map((kind, i) => [kind, this.#verdicts[i] ?? 0])),
      outcomes: Object.fromEntries(OUTCOME_KINDS.map((kind, i) => [kind, this.#outcomes[i] ?? 0])),
      tool_calls: column('tool_calls'),
      tool_executions: column('tool_executions'),
      model_calls: column('model_calls'),
      input_tokens: column('input_tokens'),
      output_tokens: column('output_tokens'),
      virtual_ms: column('virtual_ms'),
      duplicate_side_effects: this.#duplicates,
      // Unknown (NaN) when a record had none: written by a spiralbench before costs were.
      ...(Number.isNaN(this.#costMicros) ? {} : { cost_usd: this.#costMicros / 1e6 }),
      ...(this.#tasks === undefined ? {} : { tasks: this.#taskTallies(this.#tasks) }),
    };
  }

  /** Each task's runs and right outcomes, from the task (a seed names it) and verdict kept per run. */
  #taskTallies(tasks: readonly string[]): TaskTally[] {
    const runs = new Array<number>(tasks.length).fill(0);
    const right = new Array<number>(tasks.length).fill(0);
    const taskOf = this.#taskOf.view();
    const verdicts = this.#verdictOf.view();
    const success = VERDICT_KINDS.indexOf('success');
    const escalated = VERDICT_KINDS.indexOf('escalated');
    for (let row = 0; row < taskOf.length; row++) {
      const task = taskOf[row] as number;
      runs[task]! += 1;
      const verdict = verdicts[row];
      if (verdict === success || (this.#impossible && verdict === escalated)) right[task]! += 1;
    }
    return tasks.flatMap((task, i) => (runs[i] === 0 ? [] : [{ task, runs: runs[i]!, right: right[i]! }]));
  }
}
