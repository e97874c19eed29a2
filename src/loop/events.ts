import type { FaultKind } from '../faults/fault-profile.js';
import type { ToolErrorCode } from '../faults/tool-errors.js';
import type { RunOutcome } from './outcome.js';

/** Every event the loop and its guards emit, on a literal `type`. `at` is virtual ms. */
export type AgentEvent =
  | { readonly type: 'agent_run.started'; readonly at: number }
  | { readonly type: 'agent.model.call'; readonly at: number; readonly iteration: number; readonly inputTokens: number; readonly outputTokens: number }
  | { readonly type: 'agent.tool.call'; readonly at: number; readonly id: string; readonly tool: string; readonly input: unknown }
  | { readonly type: 'agent.tool.fault'; readonly at: number; readonly tool: string; readonly fault: FaultKind }
  | { readonly type: 'agent.tool.result'; readonly at: number; readonly id: string; readonly tool: string; readonly isError: boolean; readonly content: string }
  | { readonly type: 'agent.tool.retry'; readonly at: number; readonly tool: string; readonly attempt: number; readonly delayMs: number; readonly code: ToolErrorCode }
  | { readonly type: 'agent.repeat.blocked'; readonly at: number; readonly tool: string; readonly fingerprint: string }
  | { readonly type: 'agent.budget.exhausted'; readonly at: number; readonly toolCalls: number; readonly limit: number }
  | { readonly type: 'agent.guardrail.escalated'; readonly at: number; readonly payload: unknown }
  | { readonly type: 'agent_run.completed'; readonly at: number; readonly outcome: RunOutcome['kind'] };

export type AgentEventType = AgentEvent['type'];
export type EventListener = (event: AgentEvent) => void;
