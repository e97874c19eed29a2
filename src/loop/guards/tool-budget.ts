import type { Guard } from '../guard.js';

export interface ToolBudgetOptions {
  /** Tool calls allowed before the final turn; set per task class (lookup 5, standard 15, research 40). */
  readonly maxToolCalls: number;
}

/**
 * Counts the model's tool calls. At the ceiling, before the next model call, it stops
 * offering tools and sends one neutral message; the reply to that is the final answer.
 * Calls of one turn past the ceiling are answered without being run.
 *
 * @example
 * toolBudget({ maxToolCalls: 15 })
 */
export function toolBudget({ maxToolCalls }: ToolBudgetOptions): Guard {
  let exhausted = false;
  return {
    name: 'budget',
    // A turn of several calls can cross the ceiling; the calls past it are not run.
    beforeToolCall(_call, ctx) {
      if (ctx.toolCalls < maxToolCalls) return undefined; // calls made before this one
      return { kind: 'answer', content: `Not run: the tool budget (${maxToolCalls} calls) is used up.`, isError: true };
    },
    beforeModelCall(ctx) {
      if (exhausted || ctx.toolCalls < maxToolCalls) return undefined;
      exhausted = true;
      ctx.emit({ type: 'agent.budget.exhausted', at: ctx.clock.now(), toolCalls: ctx.toolCalls, limit: maxToolCalls });
      return {
        kind: 'final_turn',
        message: `Tool budget exhausted (${maxToolCalls} calls). Summarize what you have learned and return a final answer.`,
        outcome: 'budget_exhausted',
      };
    },
  };
}
