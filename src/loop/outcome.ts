import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * How a run ended, from the loop's point of view (the verdict on the world is separate).
 *
 * @example
 * switch (result.outcome.kind) {
 *   case 'completed': return result.outcome.finalText;
 *   case 'escalated': return askAPerson(result.outcome.payload);
 *   default: throw new Error(`agent stopped: ${result.outcome.kind}`);
 * }
 */
export type RunOutcome =
  | { readonly kind: 'completed'; readonly finalText: string }
  | { readonly kind: 'budget_exhausted'; readonly finalText: string; readonly toolCalls: number }
  | { readonly kind: 'escalated'; readonly payload: unknown }
  | { readonly kind: 'max_iterations'; readonly iterations: number }
  | { readonly kind: 'cancelled'; readonly reason: string }
  /** A time limit passed: the soft one after its last turn (with that turn's text), or the hard one. */
  | {
      readonly kind: 'timed_out';
      readonly limit: 'soft' | 'hard';
      readonly finalText: string | null;
      readonly elapsedMs: number;
    }
  | {
      readonly kind: 'failed';
      readonly reason: string;
      /** The error that ended the run (a model call's, a tool host's), when one did: results record its class, status and message. */
      readonly error?: unknown;
    }
  /** A resume halted for a person: a side-effecting call may have run before the crash, or the system prompt changed. */
  | { readonly kind: 'waiting_on_human'; readonly reason: string };

export type OutcomeKind = RunOutcome['kind'];
export const OUTCOME_KINDS: readonly OutcomeKind[] = [
  'completed',
  'budget_exhausted',
  'escalated',
  'max_iterations',
  'cancelled',
  'failed',
  'timed_out',
  'waiting_on_human',
];

/**
 * What a run cost: tool calls and executions, model calls, tokens, virtual time, dollars.
 *
 * @example
 * const { toolCalls, inputTokens, costUsd } = result.metrics;
 */
export interface RunMetrics {
  /** tool_use blocks the model produced, refused ones included: what the budget counts by default (`counts: 'requested'`). */
  readonly toolCalls: number;
  /** Executions the tools saw, the executor's automatic retries included and refused calls not (`counts: 'executed'`). */
  readonly toolExecutions: number;
  readonly toolRetries: number;
  /** Model calls the model answered; failed attempts are not counted here. */
  readonly modelCalls: number;
  /** Every input token of every answered call: read afresh, or read from or written to the prompt cache. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The part of `inputTokens` the prompt cache read (priced at a tenth of input). */
  readonly cacheReadTokens: number;
  /** The part of `inputTokens` written to the prompt cache (priced at 1.25× input, 2× for an hour's lifetime). */
  readonly cacheWriteTokens: number;
  /** Virtual time the run took, in ms. */
  readonly virtualMs: number;
  /** Failed model calls sent again by a guard (`agent.model.retry`). */
  readonly modelRetries: number;
  /** Estimated dollars at the model table's list prices: each answered call at its model's price, summary calls included. */
  readonly costUsd: number;
}

/**
 * What `BudgetedAgentLoop.run` returns: how the run ended, what it cost, and the transcript.
 *
 * @example
 * const result: RunResult = await loop.run('Fetch user u_1042 ...');
 * console.log(result.outcome.kind, result.metrics.toolCalls, result.messages.length);
 */
export interface RunResult {
  readonly outcome: RunOutcome;
  readonly metrics: RunMetrics;
  /** The whole conversation, as the model last saw it plus its last reply. */
  readonly messages: readonly MessageParam[];
}
