import { FAULT_KINDS, type FaultKind } from '../faults/fault-profile.js';
import type { ModelFaultKind, RecordedModelFaultKind } from '../faults/model-faults.js';
import type { AgentEventType } from '../loop/events.js';
import type { JournalRecord } from '../loop/journal/run-journal.js';
import type { OutcomeKind } from '../loop/outcome.js';
import type { VerdictKind } from '../scenarios/judge.js';
import type { LiveRecord } from './live-session.js';

/** Guard event types counted on every record, in this order (new ones go at the end). */
export const COUNTED_EVENTS = [
  'agent.tool.retry',
  'agent.repeat.blocked',
  'agent.budget.exhausted',
  'agent.guardrail.escalated',
  'agent.model.retry',
  'agent.model.fallback',
  'agent.loop.detected',
  'agent.tool.arguments',
  'agent.messages.fixed',
  'agent.output_limit',
  'agent.iterations.extended',
  'agent_run.started',
  'agent_run.completed',
  'agent_run.cancelled',
  'agent_run.failed',
  'agent.compaction.run',
  'agent.recovery.fired',
] as const satisfies readonly AgentEventType[];
export type CountedEvent = (typeof COUNTED_EVENTS)[number];

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
  readonly tool_calls: number;
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
}

export function emptyFaultCounts(counts: Partial<Record<FaultKind, number>>): Record<FaultKind, number> {
  const all = {} as Record<FaultKind, number>;
  for (const kind of FAULT_KINDS) all[kind] = counts[kind] ?? 0;
  return all;
}

/** A zero count per counted event type, in COUNTED_EVENTS order (the order they are written in). */
export function zeroEventCounts(): Record<CountedEvent, number> {
  const counts = {} as Record<CountedEvent, number>;
  for (const type of COUNTED_EVENTS) counts[type] = 0;
  return counts;
}

/** Each counted event type's place in COUNTED_EVENTS. */
const COUNTED_PLACE: ReadonlyMap<string, number> = new Map(COUNTED_EVENTS.map((type, place) => [type, place]));

/**
 * A run's counts of the counted events, as they happen. Most of a run's events are not
 * counted (model calls, tool calls and results): each is passed over with one lookup in a
 * fixed table, where asking the run's counts object whether it has a key missed in V8's
 * property caches on every event.
 */
export class EventCounts {
  readonly #counts: number[] = [];

  constructor() {
    for (let place = 0; place < COUNTED_EVENTS.length; place++) this.#counts.push(0);
  }

  see(type: AgentEventType): void {
    const place = COUNTED_PLACE.get(type);
    if (place !== undefined) this.#counts[place]! += 1;
  }

  /** The counts as a record carries them, in COUNTED_EVENTS order. */
  toRecord(): Record<CountedEvent, number> {
    const counts = {} as Record<CountedEvent, number>;
    for (let place = 0; place < COUNTED_EVENTS.length; place++) counts[COUNTED_EVENTS[place]!] = this.#counts[place]!;
    return counts;
  }
}

/** The fault counts a record carries: a stream cut only where one could happen, so non-streaming records keep their bytes. */
export function recordedModelFaults(counts: Readonly<Record<ModelFaultKind, number>>, stream: boolean): RunRecord['model_faults'] {
  const { stream_cut, ...recorded } = counts;
  return stream ? { ...recorded, stream_cut } : recorded;
}
