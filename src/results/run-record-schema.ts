import { z } from 'zod';
import { OUTCOME_KINDS, type OutcomeKind } from '../loop/outcome.js';
import type { VerdictKind } from '../scenarios/judge.js';
import { amount, count, counts, failureReason, finite, name, oneOf, text, whole } from './field-schemas.js';
import { UserInputError } from '../user-input-error.js';
import { parseJson, parseWith, preview } from './input-problems.js';

// Exhaustive over VerdictKind: a new verdict kind fails the type check here.
const VERDICT_SET = { success: true, escalated: true, failure: true, harmful: true } as const satisfies Record<
  VerdictKind,
  true
>;
export const VERDICTS = Object.keys(VERDICT_SET) as [VerdictKind, ...VerdictKind[]];
const OUTCOMES = OUTCOME_KINDS as unknown as [OutcomeKind, ...OutcomeKind[]];

/**
 * One line of runs.jsonl. The fields every version wrote are required; those appended
 * since (model faults, refetches, journal, cost, live, failure reason, ensemble member) are optional, so a
 * sweep saved by an older spiralbench still reads. Unknown fields are ignored.
 */
export const runRecordSchema = z.object({
  sweep_seed: whole,
  scenario: name,
  arm: name,
  seed: count,
  model: text,
  outcome: oneOf(OUTCOMES),
  verdict: oneOf(VERDICTS),
  verdict_reason: text,
  tool_calls: count,
  tool_executions: count,
  tool_retries: count,
  model_calls: count,
  input_tokens: count,
  output_tokens: count,
  virtual_ms: amount,
  duplicate_side_effects: count,
  faults: counts,
  events: counts,
  escalation: z.unknown(),
  model_faults: counts.optional(),
  refetch_calls: count.optional(),
  journal: z.record(z.string(), z.unknown()).nullable().optional(),
  cost_usd: amount.optional(),
  live: z
    .object({
      mode: z.literal('live'),
      timeout_ms: amount,
      time_scale: finite,
      wall_ms: amount,
      fault_mismatches: count,
    })
    .optional(),
  failure_reason: failureReason.optional(),
  /** The persona ensemble member that played the model (0-based); only in sweeps run with an ensemble. */
  member: count.optional(),
});

/**
 * A run record as read back from runs.jsonl; a sweep's RunRecord is one of these.
 *
 * @example
 * const costly = (run: StoredRun) => run.tool_calls > 50 || run.verdict === 'harmful';
 */
export type StoredRun = z.infer<typeof runRecordSchema>;

/** One line of runs.jsonl, checked; `source` is `file:line`. */
export function parseRunLine(line: string, source: string): StoredRun {
  const value = parseJson(line, source, 'one JSON run record per line');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw UserInputError.single(source, '', `a JSON object (a run record); got ${preview(line)}`);
  return parseWith(runRecordSchema, value, source);
}
