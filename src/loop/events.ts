import type { MetFault } from '../tools/tool-fault.js';
import type { CheckpointBoundary } from './durability.js';
import type { ToolErrorCode } from '../tools/tool-error.js';
import type { RunOutcome } from './outcome.js';

/**
 * Every event the loop and its guards emit, on a literal `type`. `at` is virtual ms.
 *
 * @example
 * const loop = new BudgetedAgentLoop({
 *   model, tools,
 *   onEvent: (event: AgentEvent) => {
 *     if (event.type === 'agent.tool.retry') console.log(`retry ${event.tool} in ${event.delayMs} ms`);
 *   },
 * });
 */
export type AgentEvent =
  | { readonly type: 'agent_run.started'; readonly at: number }
  | {
      readonly type: 'agent.model.call';
      readonly at: number;
      readonly iteration: number;
      readonly inputTokens: number;
      readonly outputTokens: number;
    }
  /** A failed model call is sent again after `delayMs`; `errorClass` is the SDK's error class, `status` null without a response. */
  | {
      readonly type: 'agent.model.retry';
      readonly at: number;
      readonly model: string;
      readonly attempt: number;
      readonly delayMs: number;
      readonly errorClass: string;
      readonly status: number | null;
    }
  /** From now on model calls go to `to` instead of `from`. */
  | {
      readonly type: 'agent.model.fallback';
      readonly at: number;
      readonly from: string;
      readonly to: string;
      readonly reason: string;
    }
  | {
      readonly type: 'agent.tool.call';
      readonly at: number;
      readonly id: string;
      readonly tool: string;
      readonly input: unknown;
    }
  /** A configuration the API refused as configured was set aside; calls go out with the last one that worked. */
  | {
      readonly type: 'agent.config.rolled_back';
      readonly at: number;
      readonly from: string;
      readonly to: string;
      readonly reason: string;
    }
  /**
   * Reading back after a write changed what the model is told: a failed write took effect
   * (`applied`), a failed write did not (`not_applied`), or a write said to succeed does not show (`not_visible`).
   */
  | {
      readonly type: 'agent.write.verified';
      readonly at: number;
      readonly tool: string;
      readonly readBack: string;
      readonly finding: 'applied' | 'not_applied' | 'not_visible';
    }
  /** A streamed reply's read-only call started when its block ended, `leadMs` before the reply did. */
  | {
      readonly type: 'agent.tool.early_start';
      readonly at: number;
      readonly id: string;
      readonly tool: string;
      readonly leadMs: number;
    }
  | { readonly type: 'agent.tool.fault'; readonly at: number; readonly tool: string; readonly fault: MetFault }
  | {
      readonly type: 'agent.tool.result';
      readonly at: number;
      readonly id: string;
      readonly tool: string;
      readonly isError: boolean;
      readonly content: string;
    }
  | {
      readonly type: 'agent.tool.retry';
      readonly at: number;
      readonly tool: string;
      readonly attempt: number;
      readonly delayMs: number;
      readonly code: ToolErrorCode;
    }
  /** A tool output the injection detector flagged was withheld from the model. */
  | { readonly type: 'agent.injection.withheld'; readonly at: number; readonly tool: string }
  /** Session trust refused a side effect on a target the operator's words do not name, in a session an untrusted source started. */
  | { readonly type: 'agent.trust.refused'; readonly at: number; readonly tool: string; readonly target: string }
  /** An answer broke its tool's declared output or named another entity than the call asked for; it came back as a failed call. */
  | { readonly type: 'agent.contract.broken'; readonly at: number; readonly tool: string; readonly problem: string }
  /** The tool filter left these tools out of every request of the run. */
  | { readonly type: 'agent.tools.filtered'; readonly at: number; readonly removed: readonly string[] }
  | { readonly type: 'agent.repeat.blocked'; readonly at: number; readonly tool: string; readonly fingerprint: string }
  /** `toolCalls`: what the budget counted when it ran out (calls requested, or executions, per its `counts`). */
  | { readonly type: 'agent.budget.exhausted'; readonly at: number; readonly toolCalls: number; readonly limit: number }
  | { readonly type: 'agent.guardrail.escalated'; readonly at: number; readonly payload: unknown }
  /** Thrash was found after a tool batch; `tier` is the ladder's step (1 nudge, 2 directive, 3 forced stuck call). */
  | {
      readonly type: 'agent.loop.detected';
      readonly at: number;
      readonly kind: 'identical' | 'pattern';
      readonly tool: string;
      readonly tier: 1 | 2 | 3;
      readonly level: 'nudge' | 'directive' | 'forced';
    }
  /** Arguments sent as text were read with `strategy` (direct, double_encoded, strip_fences, balanced_block, trailing_commas, jsonrepair; see argument-repair.ts) or not at all (`failed`). */
  | { readonly type: 'agent.tool.arguments'; readonly at: number; readonly tool: string; readonly strategy: string }
  /** The transcript was repaired before a model call. */
  | {
      readonly type: 'agent.messages.fixed';
      readonly at: number;
      readonly merged: number;
      readonly droppedResults: number;
      readonly strippedCalls: number;
    }
  /** A reply hit the output limit; `action` is what the guard did about it. */
  | {
      readonly type: 'agent.output_limit';
      readonly at: number;
      readonly action: 'raise' | 'resume' | 'give_up';
      readonly maxTokens: number;
    }
  /** The model asked for more iterations; `granted` of them were added, up to the cap. */
  | {
      readonly type: 'agent.iterations.extended';
      readonly at: number;
      readonly granted: number;
      readonly limit: number;
    }
  /** A run resumed from its last checkpoint (`boundary`) after an interruption. */
  | { readonly type: 'agent_run.resumed'; readonly at: number; readonly boundary: CheckpointBoundary }
  /** A call completed before an interruption, answered from the idempotency envelope without running the tool. */
  | { readonly type: 'agent.tool.replayed'; readonly at: number; readonly id: string; readonly tool: string }
  /**
   * The older part of the transcript was replaced by one summary message (or, when the
   * summary call failed, dropped with a notice). `trigger`: the estimate crossed the
   * threshold, or the API answered 413. The summary call's tokens count toward the run's.
   */
  | {
      readonly type: 'agent.compaction.run';
      readonly at: number;
      readonly trigger: 'threshold' | 'too_large';
      readonly deep: boolean;
      readonly summary: 'model' | 'truncated';
      readonly beforeTokens: number;
      readonly afterTokens: number;
      readonly beforeMessages: number;
      readonly afterMessages: number;
      readonly pinned: number;
      readonly summaryModel: string;
      /** Every input token of the summary call, cached or not. */
      readonly summaryInputTokens: number;
      readonly summaryOutputTokens: number;
      /** The summary call's dollars at its model's list prices, prompt-cache reads and writes priced as such. */
      readonly summaryCostUsd: number;
    }
  /** A rung of the context recovery ladder: 1 compact, 2 deep prune, 3 ask the human; `count` of the run's cap. */
  | {
      readonly type: 'agent.recovery.fired';
      readonly at: number;
      readonly rung: 1 | 2 | 3;
      readonly iteration: number;
      readonly tokens: number;
      readonly count: number;
    }
  | { readonly type: 'agent_run.cancelled'; readonly at: number; readonly reason: string }
  /** The run ended `failed`; emitted just before `agent_run.completed`, which every run ends with. */
  | { readonly type: 'agent_run.failed'; readonly at: number; readonly reason: string }
  | { readonly type: 'agent_run.completed'; readonly at: number; readonly outcome: RunOutcome['kind'] };

export type AgentEventType = AgentEvent['type'];
export type EventListener = (event: AgentEvent) => void;
