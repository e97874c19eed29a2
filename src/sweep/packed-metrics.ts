import { OUTCOME_KINDS, type OutcomeKind } from '../loop/outcome.js';
import type { VerdictKind } from '../scenarios/judge.js';
import type { RunRecord } from '../results/run-record-schema.js';

export const VERDICT_KINDS: readonly VerdictKind[] = ['success', 'escalated', 'failure', 'harmful'];

/**
 * The numbers of a run that summaries need, packed as one row of a Float64Array so a
 * worker can hand a whole chunk's worth to the main thread without cloning objects.
 */
export const PACKED_FIELDS = [
  'verdict',
  'outcome',
  'tool_calls',
  'tool_executions',
  'model_calls',
  'input_tokens',
  'output_tokens',
  'virtual_ms',
  'duplicate_side_effects',
  'seed',
  'cost_usd',
] as const;
export const PACKED_WIDTH = PACKED_FIELDS.length;

export function packRun(
  record: Pick<RunRecord, 'verdict' | 'outcome' | Exclude<(typeof PACKED_FIELDS)[number], 'cost_usd'>> & {
    /** Absent from records written before costs were: NaN, and the cell's cost is unknown. */
    readonly cost_usd?: number | undefined;
  },
  into: Float64Array,
  row: number,
): void {
  const at = row * PACKED_WIDTH;
  into[at] = VERDICT_KINDS.indexOf(record.verdict);
  into[at + 1] = OUTCOME_KINDS.indexOf(record.outcome as OutcomeKind);
  into[at + 2] = record.tool_calls;
  into[at + 3] = record.tool_executions;
  into[at + 4] = record.model_calls;
  into[at + 5] = record.input_tokens;
  into[at + 6] = record.output_tokens;
  into[at + 7] = record.virtual_ms;
  into[at + 8] = record.duplicate_side_effects;
  into[at + 9] = record.seed;
  // In millionths of a dollar, whole: a cell's sum is then the same in any order (shards, merge).
  into[at + 10] = record.cost_usd === undefined ? Number.NaN : Math.round(record.cost_usd * 1e6);
}
