import { z } from 'zod';
import { amount, count, counts, failureReason, finite, name, text, whole } from './field-schemas.js';
import { VERDICTS } from './run-record-schema.js';

/** An event of a saved timeline: a known AgentEvent or one this version does not know yet. */
export interface StoredTraceEvent {
  readonly type: string;
  readonly at: number;
  readonly [field: string]: unknown;
}

/** The record a trace carries: the fields a timeline shows. */
export interface StoredTraceRecord {
  readonly outcome: string;
  readonly verdict: string;
  readonly verdict_reason: string;
  readonly tool_calls: number;
  readonly tool_executions: number;
  readonly tool_retries: number;
  readonly model_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly virtual_ms: number;
  readonly duplicate_side_effects: number;
  readonly faults: Readonly<Record<string, number>>;
  readonly escalation: unknown;
  readonly failure_reason?:
    | { readonly error_class: string; readonly status: number | null; readonly message: string }
    | undefined;
}

/** One line of traces.jsonl: a selected run's timeline, for the report's drill-down. */
export interface StoredTrace {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly sweep_seed: number;
  /** Why the run was selected (worst tool calls, a failure, ...). */
  readonly reasons: readonly string[];
  readonly replay: string;
  readonly record: StoredTraceRecord;
  readonly prompt: string;
  /** The run's events; agent.model.call events line up with `assistant_texts`. */
  readonly events: readonly StoredTraceEvent[];
  readonly assistant_texts: readonly string[];
  /** Events left out of the middle of a long run (0 when none). */
  readonly events_omitted: number;
  readonly outbox: ReadonlyArray<{ readonly key: string; readonly value: unknown }>;
}

// Loose objects: a trace is written back whole by a merge, whatever fields it has.
const traceRecordSchema = z.looseObject({
  outcome: text,
  verdict: z.enum(VERDICTS),
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
  escalation: z.unknown(),
  failure_reason: failureReason.optional(),
});

export const traceSchema: z.ZodType<StoredTrace> = z.looseObject({
  scenario: name,
  arm: name,
  seed: count,
  sweep_seed: whole,
  reasons: z.array(text),
  replay: text,
  record: traceRecordSchema,
  prompt: text,
  events: z.array(z.looseObject({ type: text, at: finite })),
  assistant_texts: z.array(text),
  events_omitted: count,
  outbox: z.array(z.looseObject({ key: text, value: z.unknown() })),
});
