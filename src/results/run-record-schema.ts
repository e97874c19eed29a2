import { z } from 'zod';
import { OUTCOME_KINDS, type OutcomeKind } from '../loop/outcome.js';
import type { VerdictKind } from '../scenarios/judge.js';
import { RECORDED_MODEL_FAULT_KINDS, type RecordedModelFaultKind } from '../faults/model-faults.js';
import type { JournalRecord } from '../loop/journal/run-journal.js';
import { DATA_FAULT_KINDS, FAULT_KINDS } from '../tools/tool-fault.js';
import { COUNTED_EVENTS } from './counted-events.js';
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

/** What a live run appends to its record (docs/live.md). */
export const liveRecordSchema = z.object({
  mode: z.literal('live'),
  timeout_ms: amount,
  time_scale: finite,
  /** Real time the run took, ms. */
  wall_ms: amount,
  /** Executions whose fault as the client observed it differs from the server's decision. */
  fault_mismatches: count,
});
export type LiveRecord = Readonly<z.infer<typeof liveRecordSchema>>;

const RECORDED_KINDS = RECORDED_MODEL_FAULT_KINDS as [RecordedModelFaultKind, ...RecordedModelFaultKind[]];

/**
 * One line of runs.jsonl as this version writes it, field by field in the order written
 * (fields are only ever appended). The writer's type, `RunRecord`, is this schema's; a
 * test parses what sweeps write with it.
 */
export const writtenRunSchema = z.object({
  sweep_seed: whole,
  scenario: name,
  arm: name,
  seed: count,
  model: text,
  outcome: oneOf(OUTCOMES),
  verdict: oneOf(VERDICTS),
  verdict_reason: text,
  /** Tool calls the model asked for, refused ones included (a budget with `counts: requested` counts these). */
  tool_calls: count,
  /** Executions the tools saw: automatic retries included, refused calls not (`counts: executed`). */
  tool_executions: count,
  tool_retries: count,
  model_calls: count,
  /** Every input token of every answered call, cached or not (the two fields after it are parts of it). */
  input_tokens: count,
  output_tokens: count,
  /** The part of input_tokens the prompt cache read. */
  cache_read_input_tokens: count,
  /** The part of input_tokens written to the prompt cache. */
  cache_creation_input_tokens: count,
  virtual_ms: amount,
  duplicate_side_effects: count,
  /** Tool faults met, every kind in FAULT_KINDS order. */
  faults: z.record(z.enum(FAULT_KINDS), count).readonly(),
  /** Guard events, every counted type in COUNTED_EVENTS order. */
  events: z.record(z.enum(COUNTED_EVENTS), count).readonly(),
  escalation: z.unknown(),
  /** Model-side faults injected, by kind; `stream_cut` only on a streamed run, so other records keep their bytes. */
  model_faults: z
    .intersection(z.record(z.enum(RECORDED_KINDS), count), z.object({ stream_cut: count.exactOptional() }))
    .readonly(),
  /** Calls that fetched again what an earlier call of the same tool and arguments had returned (see RefetchCounter). */
  refetch_calls: count,
  /** The run journal as the run left it (null without the journal guard): findings outlive compaction and halts. */
  journal: z.custom<JournalRecord>((value) => typeof value === 'object' && value !== null).nullable(),
  /** Estimated cost in US dollars at the model table's list prices (each call at its model's price), rounded to 1e-6. */
  cost_usd: amount,
  /** Live runs only (absent from virtual records): how the run ran in real time. */
  live: liveRecordSchema.exactOptional(),
  /** Failed runs only, when an error ended them: the error's class, HTTP status and message. */
  failure_reason: failureReason.exactOptional(),
  /** Sweeps run with a persona ensemble only (absent otherwise): the member that played the model, 0-based. */
  member: count.exactOptional(),
  /** Scenarios that declare faults in the data only (absent otherwise): those met, every kind in DATA_FAULT_KINDS order. */
  data_faults: z.record(z.enum(DATA_FAULT_KINDS), count).readonly().exactOptional(),
  /** Dataset scenarios only (absent otherwise): the task the run played, the row's task id (docs/datasets.md). */
  task: z.string().min(1).exactOptional(),
});

/**
 * One run's result, one line of runs.jsonl, as a sweep writes it. Field order is fixed by
 * construction (`RunSession.finish`), so the same run always serialises to the same bytes.
 */
export type RunRecord = Readonly<z.infer<typeof writtenRunSchema>>;

/**
 * One line of runs.jsonl as read. The fields every version wrote are required; those
 * appended since (model faults, refetches, journal, cost, live, failure reason, ensemble
 * member, prompt-cache tokens) are optional, so a sweep saved by an older spiralbench still reads; counts are
 * read by any name, for a newer writer may add kinds. Unknown fields are ignored.
 */
export const runRecordSchema = writtenRunSchema.extend({
  faults: counts,
  events: counts,
  model_faults: counts.optional(),
  refetch_calls: count.optional(),
  journal: z.record(z.string(), z.unknown()).nullable().optional(),
  cost_usd: amount.optional(),
  cache_read_input_tokens: count.optional(),
  cache_creation_input_tokens: count.optional(),
});

/**
 * A run record as read back from runs.jsonl; a sweep's RunRecord is one of these.
 *
 * @example
 * const costly = (run: StoredRun) => run.tool_calls > 50 || run.verdict === 'harmful';
 */
export type StoredRun = z.infer<typeof runRecordSchema>;

/**
 * The fields of a run record that a viewer indexes (what its filters and sorting read),
 * checked as `runRecordSchema` checks them: a big sweep is indexed without checking every
 * field of every line, and each run shown is read whole with `parseRunLine`.
 */
export const indexedRunSchema = runRecordSchema.pick({
  sweep_seed: true,
  scenario: true,
  arm: true,
  seed: true,
  outcome: true,
  verdict: true,
  tool_calls: true,
  model_calls: true,
  input_tokens: true,
  faults: true,
  events: true,
  model_faults: true,
  cost_usd: true,
  member: true,
  data_faults: true,
  task: true,
});

export type IndexedRun = z.infer<typeof indexedRunSchema>;

/** One line of runs.jsonl, its indexed fields checked (`indexedRunSchema`); `source` is `file:line`. */
export function parseIndexedRun(line: string, source: string): IndexedRun {
  return parseWith(indexedRunSchema, runObject(line, source), source);
}

/** One line of runs.jsonl, checked; `source` is `file:line`. */
export function parseRunLine(line: string, source: string): StoredRun {
  return parseWith(runRecordSchema, runObject(line, source), source);
}

function runObject(line: string, source: string): object {
  const value = parseJson(line, source, 'one JSON run record per line');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw UserInputError.single(source, '', `a JSON object (a run record); got ${preview(line)}`);
  return value;
}
