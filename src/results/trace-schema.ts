import { z } from 'zod';
import { count, finite, name, text, whole } from './field-schemas.js';
import { runRecordSchema, type StoredRun } from './run-record-schema.js';

/** An event of a saved timeline: a known AgentEvent or one this version does not know yet. */
export interface StoredTraceEvent {
  readonly type: string;
  readonly at: number;
  readonly [field: string]: unknown;
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
  /** The run's events; our loop's agent.model.call events line up with `assistant_texts`. */
  readonly events: readonly StoredTraceEvent[];
  /** What the model said at each reply; an agent's, its conversation's as read off the wire. */
  readonly assistant_texts: readonly string[];
  /** Events left out of the middle of a long run (0 when none). */
  readonly events_omitted: number;
  readonly outbox: ReadonlyArray<{ readonly key: string; readonly value: unknown }>;
}

// Loose objects: a trace is written back whole by a merge, whatever fields it has.
/** The run record's fields a trace's timeline shows. */
const TRACE_RECORD_FIELDS = {
  outcome: true,
  verdict: true,
  verdict_reason: true,
  tool_calls: true,
  tool_executions: true,
  tool_retries: true,
  model_calls: true,
  input_tokens: true,
  output_tokens: true,
  virtual_ms: true,
  duplicate_side_effects: true,
  faults: true,
  escalation: true,
  failure_reason: true,
} as const;

/** The record a trace carries: those fields checked as a run record's are, any others kept as they are. */
const traceRecordSchema = runRecordSchema.pick(TRACE_RECORD_FIELDS).loose();

export type StoredTraceRecord = Pick<StoredRun, keyof typeof TRACE_RECORD_FIELDS>;

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
