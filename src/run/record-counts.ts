import type { ModelFaultKind, RecordedModelFaultKind } from '../faults/model-faults.js';
import type { AgentEventType } from '../loop/events.js';
import { COUNTED_EVENTS, type CountedEvent } from '../results/counted-events.js';
import type { RunRecord } from '../results/run-record-schema.js';

// The counts a run record carries (its guard events, its model faults), made the cheap way:
// they are built on every run.

const COUNTED: ReadonlySet<string> = new Set(COUNTED_EVENTS);

/**
 * A zero count per counted event type, in COUNTED_EVENTS order (the order they are written
 * in; a test pins it). A literal: V8 makes it with a known shape at once, where an object
 * grown key by key past about twenty properties falls to a slow dictionary that every
 * run's copy and every count then paid for.
 */
export function zeroEventCounts(): Record<CountedEvent, number> {
  return {
    'agent.tool.retry': 0,
    'agent.repeat.blocked': 0,
    'agent.budget.exhausted': 0,
    'agent.guardrail.escalated': 0,
    'agent.model.retry': 0,
    'agent.model.fallback': 0,
    'agent.loop.detected': 0,
    'agent.tool.arguments': 0,
    'agent.messages.fixed': 0,
    'agent.output_limit': 0,
    'agent.iterations.extended': 0,
    'agent_run.started': 0,
    'agent_run.completed': 0,
    'agent_run.cancelled': 0,
    'agent_run.failed': 0,
    'agent.compaction.run': 0,
    'agent.recovery.fired': 0,
    'agent.injection.withheld': 0,
    'agent.trust.refused': 0,
    'agent.contract.broken': 0,
    'agent.config.rolled_back': 0,
    'agent.write.verified': 0,
  };
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
