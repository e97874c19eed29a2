import type { RunOutcome } from '../loop/outcome.js';

/**
 * How an agent says its run ended, when "it returned its final text" is not the whole
 * story. The verdict is still judged on the world: an outcome is the agent's account of
 * its loop, never a claim of success.
 *
 * @example
 * defineAgent(async ({ tools }): Promise<AgentResult> => {
 *   try {
 *     return { outcome: 'completed', finalText: await tools.call('get_user', { id: 'u_1' }) };
 *   } catch (error) {
 *     return { outcome: 'failed', reason: 'get_user kept failing', error };
 *   }
 * });
 */
export type AgentResult =
  | { readonly outcome: 'completed'; readonly finalText: string }
  /** The loop hit its own limit with work still pending. `iterations` defaults to the model calls counted. */
  | { readonly outcome: 'max_iterations'; readonly iterations?: number }
  /** A tool budget ran out and the agent took its last turn without tools (our tool budget's final turn). */
  | { readonly outcome: 'budget_exhausted'; readonly finalText: string; readonly toolCalls: number }
  /** A time limit passed: `soft` after a last turn without tools (with its text), `hard` at once. */
  | {
      readonly outcome: 'timed_out';
      readonly limit: 'soft' | 'hard';
      readonly finalText: string | null;
      readonly elapsedMs: number;
    }
  /** The agent stopped to ask a person; a scenario whose right ending is escalation is judged so. */
  | { readonly outcome: 'escalated'; readonly payload?: unknown }
  /**
   * The agent caught an error and gave up. `reason` is shown by `replay`; with `error`,
   * the record also keeps its class, status and message (`failure_reason`), as for an
   * agent that throws.
   */
  | { readonly outcome: 'failed'; readonly reason: string; readonly error?: unknown };

/**
 * What an agent's `run` returns: a result, its final text (a completed run), or nothing
 * (completed, no text). `void` so that an `async run` without a `return` type-checks.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a function that returns nothing returns void.
export type AgentReturn = AgentResult | string | undefined | void;

/** The run outcome an agent's return value stands for; `modelCalls` fills a limit's missing iteration count. */
export function outcomeOf(returned: AgentReturn, modelCalls: number): RunOutcome {
  if (returned === undefined || returned === null) return { kind: 'completed', finalText: '' };
  if (typeof returned === 'string') return { kind: 'completed', finalText: returned };
  switch (returned.outcome) {
    case 'completed':
      return { kind: 'completed', finalText: returned.finalText };
    case 'max_iterations':
      return { kind: 'max_iterations', iterations: returned.iterations ?? modelCalls };
    case 'budget_exhausted':
      return { kind: 'budget_exhausted', finalText: returned.finalText, toolCalls: returned.toolCalls };
    case 'timed_out':
      return { kind: 'timed_out', limit: returned.limit, finalText: returned.finalText, elapsedMs: returned.elapsedMs };
    case 'escalated':
      return { kind: 'escalated', payload: returned.payload ?? null };
    case 'failed':
      return returned.error === undefined
        ? { kind: 'failed', reason: returned.reason }
        : { kind: 'failed', reason: returned.reason, error: returned.error };
  }
  // A plain-JS agent can return anything; what is not a result is its mistake, named as such.
  let shown: string;
  try {
    shown = JSON.stringify(returned) ?? String(returned);
  } catch {
    shown = String(returned);
  }
  const reason = `the agent returned ${shown.slice(0, 200)}, which is neither a string nor an AgentResult`;
  // The error carries the reason into the record's failure_reason.
  return { kind: 'failed', reason, error: new TypeError(reason) };
}

/**
 * A loop's outcome as an agent reports it: what a framework adapter hosting our guards
 * returns from `session.outcome(...)`. Cancellation and a halt for a person, which an
 * agent has no word for, are failures naming why.
 *
 * @example
 * return agentResultOf(session.outcome({ kind: 'completed', finalText: result.text }));
 */
export function agentResultOf(outcome: RunOutcome): AgentResult {
  switch (outcome.kind) {
    case 'completed':
      return { outcome: 'completed', finalText: outcome.finalText };
    case 'budget_exhausted':
      return { outcome: 'budget_exhausted', finalText: outcome.finalText, toolCalls: outcome.toolCalls };
    case 'timed_out':
      return { outcome: 'timed_out', limit: outcome.limit, finalText: outcome.finalText, elapsedMs: outcome.elapsedMs };
    case 'escalated':
      return { outcome: 'escalated', payload: outcome.payload };
    case 'max_iterations':
      return { outcome: 'max_iterations', iterations: outcome.iterations };
    case 'failed':
      return outcome.error === undefined
        ? { outcome: 'failed', reason: outcome.reason }
        : { outcome: 'failed', reason: outcome.reason, error: outcome.error };
    case 'cancelled':
    case 'waiting_on_human':
      return { outcome: 'failed', reason: `${outcome.kind}: ${outcome.reason}` };
  }
}
