import type { FaultKind } from '../faults/fault-profile.js';
import type { ToolErrorCode } from '../faults/tool-errors.js';
import type { RunOutcome } from './outcome.js';

/** Every event the loop and its guards emit, on a literal `type`. `at` is virtual ms. */
export type AgentEvent =
  | { readonly type: 'agent_run.started'; readonly at: number }
  | { readonly type: 'agent.model.call'; readonly at: number; readonly iteration: number; readonly inputTokens: number; readonly outputTokens: number }
  /** A failed model call is sent again after `delayMs`; `errorClass` is the SDK's error class, `status` null without a response. */
  | { readonly type: 'agent.model.retry'; readonly at: number; readonly model: string; readonly attempt: number; readonly delayMs: number; readonly errorClass: string; readonly status: number | null }
  /** From now on model calls go to `to` instead of `from`. */
  | { readonly type: 'agent.model.fallback'; readonly at: number; readonly from: string; readonly to: string; readonly reason: string }
  | { readonly type: 'agent.tool.call'; readonly at: number; readonly id: string; readonly tool: string; readonly input: unknown }
  | { readonly type: 'agent.tool.fault'; readonly at: number; readonly tool: string; readonly fault: FaultKind }
  | { readonly type: 'agent.tool.result'; readonly at: number; readonly id: string; readonly tool: string; readonly isError: boolean; readonly content: string }
  | { readonly type: 'agent.tool.retry'; readonly at: number; readonly tool: string; readonly attempt: number; readonly delayMs: number; readonly code: ToolErrorCode }
  | { readonly type: 'agent.repeat.blocked'; readonly at: number; readonly tool: string; readonly fingerprint: string }
  | { readonly type: 'agent.budget.exhausted'; readonly at: number; readonly toolCalls: number; readonly limit: number }
  | { readonly type: 'agent.guardrail.escalated'; readonly at: number; readonly payload: unknown }
  /** The run ended `failed`; emitted just before `agent_run.completed`, which every run ends with. */
  | { readonly type: 'agent_run.failed'; readonly at: number; readonly reason: string }
  | { readonly type: 'agent_run.completed'; readonly at: number; readonly outcome: RunOutcome['kind'] };

export type AgentEventType = AgentEvent['type'];
export type EventListener = (event: AgentEvent) => void;
