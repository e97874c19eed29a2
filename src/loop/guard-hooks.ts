import type { Guard } from './guard.js';

/** The hooks called at the loop's phases and around each tool execution (model-call wrappers and argument parsing are read by their own modules). */
type PhaseHook =
  | 'beforeModelCall'
  | 'prepareRequest'
  | 'afterModelReply'
  | 'beforeToolCall'
  | 'aroundExecution'
  | 'describeError'
  | 'afterToolBatch';

/** A guard known to implement `hook`. */
export type GuardWith<K extends PhaseHook> = Guard & { readonly [P in K]-?: NonNullable<Guard[P]> };

/** Per phase, the guards that implement its hook, in consultation order. */
export type GuardHooks = { readonly [K in PhaseHook]: readonly GuardWith<K>[] };

/**
 * The run's guards sorted by hook, once per run: each phase then visits only the guards
 * it concerns (an arm's guards implement one or two hooks each), not every guard on every
 * model call and every tool call. Order within a phase is the arm's.
 */
export function guardHooks(guards: readonly Guard[]): GuardHooks {
  return {
    beforeModelCall: guards.filter(
      (guard): guard is GuardWith<'beforeModelCall'> => guard.beforeModelCall !== undefined,
    ),
    prepareRequest: guards.filter((guard): guard is GuardWith<'prepareRequest'> => guard.prepareRequest !== undefined),
    afterModelReply: guards.filter(
      (guard): guard is GuardWith<'afterModelReply'> => guard.afterModelReply !== undefined,
    ),
    beforeToolCall: guards.filter((guard): guard is GuardWith<'beforeToolCall'> => guard.beforeToolCall !== undefined),
    aroundExecution: guards.filter(
      (guard): guard is GuardWith<'aroundExecution'> => guard.aroundExecution !== undefined,
    ),
    describeError: guards.filter((guard): guard is GuardWith<'describeError'> => guard.describeError !== undefined),
    afterToolBatch: guards.filter((guard): guard is GuardWith<'afterToolBatch'> => guard.afterToolBatch !== undefined),
  };
}
