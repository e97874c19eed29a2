import { z } from 'zod';
import { defineGuard, type TaskClass } from '../define-guard.js';
import type { Guard, LoopContext } from '../guard.js';

export const SOFT_LIMIT_MESSAGE =
  "Time is nearly up. Do not call any more tools: summarize what you've done, what is left, and anything a person picking this up must know.";

export interface TimeLimitsOptions {
  /** Virtual ms after which the model gets one last turn to summarize; null: none. */
  readonly softMs: number | null;
  /** Virtual ms after which the run stops at the next check (`timed_out`); null: none. */
  readonly hardMs: number | null;
}

/**
 * Soft and hard time limits in virtual time. Past the soft limit, before the next model
 * call, tools are withdrawn and the model asked to summarize; its reply ends the run
 * (`timed_out`, soft, with that text). Past the hard limit the run stops at the next check
 * (before a model call, after a tool batch): a call in flight is never interrupted.
 *
 * @example
 * timeLimits({ softMs: 120_000, hardMs: 300_000 })
 */
export function timeLimits({ softMs, hardMs }: TimeLimitsOptions): Guard {
  let softFired = false;
  const hardStop = (ctx: LoopContext) =>
    hardMs !== null && ctx.clock.now() >= hardMs
      ? ({
          kind: 'stop',
          outcome: { kind: 'timed_out', limit: 'hard', finalText: null, elapsedMs: ctx.clock.now() },
        } as const)
      : undefined;
  return {
    name: 'time',
    beforeModelCall(ctx) {
      const stop = hardStop(ctx);
      if (stop !== undefined) return stop;
      if (softFired || softMs === null || ctx.clock.now() < softMs) return undefined;
      softFired = true;
      return { kind: 'final_turn', message: SOFT_LIMIT_MESSAGE, outcome: 'timed_out' };
    },
    afterToolBatch: hardStop,
  };
}

/** Soft and hard time limits per task class, in virtual ms: well past a typical run of the class. */
export const TIME_LIMITS_BY_CLASS: Readonly<Record<TaskClass, { readonly softMs: number; readonly hardMs: number }>> = {
  lookup: { softMs: 60_000, hardMs: 120_000 },
  standard: { softMs: 300_000, hardMs: 600_000 },
  research: { softMs: 900_000, hardMs: 1_800_000 },
};

const msOrByClass = () => z.union([z.number().int().min(0), z.literal('task-class')]).default('task-class');

/** Time limits in an arm; `'task-class'` takes TIME_LIMITS_BY_CLASS for the run's class. */
export const timeLimitsGuard = defineGuard({
  name: 'time',
  settings: z.strictObject({ softMs: msOrByClass(), hardMs: msOrByClass() }),
  build: ({ softMs, hardMs }, run) => {
    const byClass = TIME_LIMITS_BY_CLASS[run.taskClass];
    return timeLimits({
      softMs: softMs === 'task-class' ? byClass.softMs : softMs,
      hardMs: hardMs === 'task-class' ? byClass.hardMs : hardMs,
    });
  },
});
