import type { ModelFaultKind, RecordedModelFaultKind } from '../faults/model-faults.js';
import type { AgentEventType } from '../loop/events.js';
import { COUNTED_EVENTS, type CountedEvent } from '../results/counted-events.js';
import type { RunRecord } from '../results/run-record-schema.js';

// The counts a run record carries (its guard events, its model faults), made the cheap way:
// they are built on every run.

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
