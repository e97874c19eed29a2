import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { Guard, LoopContext } from '../guard.js';

/**
 * What the budget counts. `requested`: every tool call the model asked for, refused ones
 * included (a refused call still cost the model a turn). `executed`: every execution the
 * tools saw, the executor's automatic retries included and refused calls not (what the
 * backend paid for). The run records both (`tool_calls`, `tool_executions`).
 */
export type BudgetCount = (typeof BUDGET_COUNTS)[number];
const BUDGET_COUNTS = ['requested', 'executed'] as const;

export interface ToolBudgetOptions {
  /** Tool calls allowed before the final turn; set per task class (lookup 5, standard 15, research 40). */
  readonly maxToolCalls: number;
  /** What counts against the ceiling. @default 'requested' */
  readonly counts?: BudgetCount;
}

const counters: Readonly<Record<BudgetCount, (ctx: LoopContext) => number>> = {
  requested: (ctx) => ctx.toolCalls,
  executed: (ctx) => ctx.toolExecutions,
};

const UNITS: Readonly<Record<BudgetCount, string>> = { requested: 'calls', executed: 'tool executions' };

/**
 * Counts the model's tool calls (or the tools' executions). At the ceiling, before the
 * next model call, it stops offering tools and sends one neutral message; the reply to
 * that is the final answer. Calls of one turn past the ceiling are answered without
 * being run.
 *
 * @example
 * toolBudget({ maxToolCalls: 15 }) // the article's: every call the model asks for counts
 * toolBudget({ maxToolCalls: 15, counts: 'executed' }) // only what reached the tools
 */
export function toolBudget({ maxToolCalls, counts = toolBudgetGuard.defaults.counts }: ToolBudgetOptions): Guard {
  const counted = counters[counts];
  const unit = UNITS[counts];
  let exhausted = false;
  return {
    name: 'budget',
    // A turn of several calls can cross the ceiling; the calls past it are not run.
    beforeToolCall(_call, ctx) {
      if (counted(ctx) < maxToolCalls) return undefined; // counted before this call
      return {
        kind: 'answer',
        content: `Not run: the tool budget (${maxToolCalls} ${unit}) is used up.`,
        isError: true,
      };
    },
    beforeModelCall(ctx) {
      const used = counted(ctx);
      if (exhausted || used < maxToolCalls) return undefined;
      exhausted = true;
      ctx.emit({ type: 'agent.budget.exhausted', at: ctx.clock.now(), toolCalls: used, limit: maxToolCalls });
      return {
        kind: 'final_turn',
        message: `Tool budget exhausted (${maxToolCalls} ${unit}). Summarize what you have learned and return a final answer.`,
        outcome: 'budget_exhausted',
      };
    },
  };
}

/**
 * The tool budget in an arm. `maxToolCalls: 'task-class'` takes the scenario's class
 * budget (lookup 5, standard 15, research 40).
 */
export const toolBudgetGuard = defineGuard({
  name: 'budget',
  settings: z.strictObject({
    maxToolCalls: z.union([z.number().int().min(1), z.literal('task-class')]).default('task-class'),
    counts: z.enum(BUDGET_COUNTS).default('requested'),
  }),
  events: ['agent.budget.exhausted'],
  build: ({ maxToolCalls, counts }, run) =>
    toolBudget({ maxToolCalls: maxToolCalls === 'task-class' ? run.toolBudget : maxToolCalls, counts }),
});
