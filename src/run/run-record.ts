import type { FaultKind } from '../tools/tool-fault.js';
import type { ModelFaultKind, RecordedModelFaultKind } from '../faults/model-faults.js';
import type { AgentEventType } from '../loop/events.js';
import type { JournalRecord } from '../loop/journal/run-journal.js';
import type { OutcomeKind } from '../loop/outcome.js';
import type { VerdictKind } from '../scenarios/judge.js';
import { COUNTED_EVENTS, type CountedEvent } from '../results/counted-events.js';
import type { FailureReason } from './failure-reason.js';
import type { LiveRecord } from './live-session.js';

export { COUNTED_EVENTS, type CountedEvent } from '../results/counted-events.js';

/**
 * One run's result, one line of runs.jsonl. Field order is fixed by construction
 * (`toRecord`), so the same run always serialises to the same bytes.
 */
export interface RunRecord {
  readonly sweep_seed: number;
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly model: string;
  readonly outcome: OutcomeKind;
  readonly verdict: VerdictKind;
  readonly verdict_reason: string;
  /** Tool calls the model asked for, refused ones included (a budget with `counts: requested` counts these). */
  readonly tool_calls: number;
  /** Executions the tools saw: automatic retries included, refused calls not (`counts: executed`). */
  readonly tool_executions: number;
  readonly tool_retries: number;
  readonly model_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly virtual_ms: number;
  readonly duplicate_side_effects: number;
  readonly faults: Readonly<Record<FaultKind, number>>;
  readonly events: Readonly<Record<CountedEvent, number>>;
  readonly escalation: unknown;
  /**
   * Model-side faults injected, by kind (after `escalation`: fields are only ever appended);
   * `stream_cut` only on a streamed run, so non-streaming records keep their bytes.
   */
  readonly model_faults: Readonly<Record<RecordedModelFaultKind, number>> & { readonly stream_cut?: number };
  /** Calls that fetched again what an earlier call of the same tool and arguments had returned (see RefetchCounter). */
  readonly refetch_calls: number;
  /** The run journal as the run left it (null without the journal guard): findings outlive compaction and halts. */
  readonly journal: JournalRecord | null;
  /** Estimated cost in US dollars at the model table's list prices (each call at its model's price), rounded to 1e-6. */
  readonly cost_usd: number;
  /** Live runs only (absent from virtual records): how the run ran in real time. */
  readonly live?: LiveRecord;
  /**
   * Failed runs only, when an error ended them (absent from every other record, which so
   * keeps its bytes): the error's class, HTTP status and message.
   */
  readonly failure_reason?: FailureReason;
  /** Sweeps run with a persona ensemble only (absent otherwise): the member that played the model, 0-based. */
  readonly member?: number;
}

/** A zero count per name, in the order given. */
function zeroed<K extends string>(names: readonly K[]): Record<K, number> {
  const counts = {} as Record<K, number>;
  for (const name of names) counts[name] = 0;
  return counts;
}

/*
 * Every run's event counts start as a copy of this. A copy of an object whose shape V8
 * already knows costs a twentieth of adding the keys one by one (~1 µs a run for the
 * events alone). Module-private and only ever copied, so no run can write to it.
 */
const NO_EVENTS = zeroed(COUNTED_EVENTS);
const COUNTED: ReadonlySet<string> = new Set(COUNTED_EVENTS);

/** Every fault kind, in FAULT_KINDS order, with the host's count or 0. */
export function emptyFaultCounts(counts: Partial<Record<FaultKind, number>>): Record<FaultKind, number> {
  // A literal in FAULT_KINDS order (a test pins it): spreading the counts over a zeroed
  // template redefined every key the host had, on V8's slow path (0.3% of an article step).
  return {
    timeout: counts.timeout ?? 0,
    connection_refused: counts.connection_refused ?? 0,
    rate_limit: counts.rate_limit ?? 0,
    server_error: counts.server_error ?? 0,
    malformed_json: counts.malformed_json ?? 0,
    partial_write: counts.partial_write ?? 0,
    unauthorized: counts.unauthorized ?? 0,
  };
}

/** A zero count per counted event type, in COUNTED_EVENTS order (the order they are written in). */
export function zeroEventCounts(): Record<CountedEvent, number> {
  return { ...NO_EVENTS };
}

/**
 * Whether a record counts events of this type. Most of a run's events are not counted
 * (model calls, tool calls and results); a fixed set answers for them, where asking the
 * run's counts object for a key it lacks missed V8's property caches on every event.
 */
export function isCountedEvent(type: AgentEventType): type is CountedEvent {
  return COUNTED.has(type);
}

/** The fault counts a record carries: a stream cut only where one could happen, so non-streaming records keep their bytes. */
export function recordedModelFaults(
  counts: Readonly<Record<ModelFaultKind, number>>,
  stream: boolean,
): RunRecord['model_faults'] {
  // A literal in MODEL_FAULT_KINDS order (a test pins it), not an object rest
  // ({ stream_cut, ...recorded }), which takes V8's slow path: 0.7% of an article step.
  const recorded: Record<RecordedModelFaultKind, number> = {
    rate_limit: counts.rate_limit,
    server_error: counts.server_error,
    overloaded: counts.overloaded,
    request_too_large: counts.request_too_large,
    unknown_model: counts.unknown_model,
    unauthorized: counts.unauthorized,
    connection_error: counts.connection_error,
    timeout: counts.timeout,
  };
  return stream ? { ...recorded, stream_cut: counts.stream_cut } : recorded;
}
