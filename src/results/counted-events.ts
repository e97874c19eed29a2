import type { AgentEventType } from '../loop/events.js';

/**
 * Guard event types counted on every run record (its `events` field, and the `event_*`
 * columns of runs.csv), in this order; new ones go at the end, so old records keep their bytes.
 */
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
  'agent.injection.withheld',
  'agent.trust.refused',
  'agent.contract.broken',
  'agent.config.rolled_back',
  'agent.write.verified',
] as const satisfies readonly AgentEventType[];
export type CountedEvent = (typeof COUNTED_EVENTS)[number];
