import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { defineGuard, type TaskClass } from '../define-guard.js';
import type { Guard } from '../guard.js';

export const MORE_ITERATIONS_TOOL_NAME = 'request_more_iterations';

const MORE_ITERATIONS_TOOL: Tool = {
  name: MORE_ITERATIONS_TOOL_NAME,
  description:
    'Ask for more model turns when the run is about to reach its iteration limit and the task is not finished. Say why in one sentence. Each grant adds a fixed number of turns, up to a hard cap.',
  input_schema: {
    type: 'object',
    properties: { reason: { type: 'string', description: 'What is left to do and why it needs more turns.' } },
    required: ['reason'],
  },
};

export interface IterationBudgetOptions {
  /** Model calls allowed at the start. @default 10 */
  readonly initial?: number;
  /** Model calls each `request_more_iterations` call adds. @default 10 */
  readonly extension?: number;
  /** The hard cap no grant goes past. @default 25 */
  readonly cap?: number;
  /** Tell the model when this many calls are left (once per limit). @default 2 */
  readonly warnAt?: number;
}

/**
 * A dynamic iteration budget: the run may make `initial` model calls; the model can ask
 * for more through `request_more_iterations(reason)`, which adds `extension` up to the
 * hard `cap`. When few calls are left it is told so, and how to ask. At the limit the run
 * stops with `max_iterations`.
 *
 * @example
 * iterationBudget({ initial: 10, extension: 10, cap: 25 })
 */
export function iterationBudget({
  initial = ITERATIONS_BY_CLASS.standard.initial,
  extension = iterationBudgetGuard.defaults.extension,
  cap = ITERATIONS_BY_CLASS.standard.cap,
  warnAt = 2,
}: IterationBudgetOptions = {}): Guard {
  let limit = Math.min(initial, cap);
  let warnedFor = -1;
  return {
    name: 'iterations',
    tools: [MORE_ITERATIONS_TOOL],
    beforeModelCall(ctx) {
      return ctx.iteration >= limit
        ? { kind: 'stop', outcome: { kind: 'max_iterations', iterations: ctx.iteration } }
        : undefined;
    },
    beforeToolCall(call, ctx) {
      if (call.name !== MORE_ITERATIONS_TOOL_NAME) return undefined;
      const granted = Math.min(extension, cap - limit);
      if (granted <= 0) {
        return {
          kind: 'answer',
          content: `No more turns can be granted: the hard cap of ${cap} model calls is reached. Finish with what you have.`,
          isError: true,
        };
      }
      limit += granted;
      ctx.emit({ type: 'agent.iterations.extended', at: ctx.clock.now(), granted, limit });
      return {
        kind: 'answer',
        content: `Granted ${granted} more turns: the limit is now ${limit} model calls (${limit - ctx.iteration} left).`,
        isError: false,
      };
    },
    afterToolBatch(ctx) {
      const left = limit - ctx.iteration;
      if (left > warnAt || warnedFor === limit) return undefined;
      warnedFor = limit;
      const ask =
        limit < cap
          ? ` If you need more to finish, call ${MORE_ITERATIONS_TOOL_NAME} with your reason.`
          : ' No more can be granted.';
      return {
        kind: 'intervene',
        message: `You have ${left} model call${left === 1 ? '' : 's'} left in this run.${ask}`,
      };
    },
  };
}

/**
 * The dynamic iteration budget per task class: the 10 → 25 for lookups and
 * standard tasks; a research task (tool budget 40) starts at 30 and may reach 60, so the
 * tool budget's final turn comes first.
 */
export const ITERATIONS_BY_CLASS: Readonly<Record<TaskClass, { readonly initial: number; readonly cap: number }>> = {
  lookup: { initial: 10, cap: 25 },
  standard: { initial: 10, cap: 25 },
  research: { initial: 30, cap: 60 },
};

const byClassOr = (min: number) => z.union([z.number().int().min(min), z.literal('task-class')]).default('task-class');

/** The iteration budget in an arm; `'task-class'` takes ITERATIONS_BY_CLASS for the run's class. */
export const iterationBudgetGuard = defineGuard({
  name: 'iterations',
  settings: z.strictObject({
    initial: byClassOr(1),
    extension: z.number().int().min(0).default(10),
    cap: byClassOr(1),
  }),
  events: ['agent.iterations.extended'],
  build: ({ initial, extension, cap }, run) => {
    const byClass = ITERATIONS_BY_CLASS[run.taskClass];
    return iterationBudget({
      initial: initial === 'task-class' ? byClass.initial : initial,
      extension,
      cap: cap === 'task-class' ? byClass.cap : cap,
    });
  },
});
