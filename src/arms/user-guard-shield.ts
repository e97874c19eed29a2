import type { GuardDescriptor, GuardRun } from '../loop/define-guard.js';
import type { Guard } from '../loop/guard.js';
import { GuardThrew } from '../loop/guard-threw.js';

/** Errors that came up through a `next` a user hook was handed: not the hook's own. */
const passedThrough = new WeakSet<object>();

/**
 * A user guard built for one run, with its own code fenced: a `build` or a hook that
 * throws becomes a `GuardThrew` naming it, which the loop turns into a failed run, so one
 * broken guard cannot end a whole sweep or go unnamed. Errors from what the hook wraps
 * (`next`) pass through untouched. Built-in guards are not fenced: their runs keep their
 * bytes and their speed.
 */
export function shieldedUserGuard(
  descriptor: GuardDescriptor,
  settings: Record<string, unknown>,
  run: GuardRun,
): Guard {
  const name = descriptor.name;
  let guard: Guard;
  try {
    guard = descriptor.build(settings, run);
  } catch (error) {
    const threw = new GuardThrew(name, error, ' in build');
    // A stand-in that ends the run before its first model call.
    return {
      name,
      beforeModelCall: () => ({ kind: 'stop', outcome: { kind: 'failed', reason: threw.message, error: threw } }),
    };
  }
  const fence =
    <A extends unknown[], R>(hook: (...args: A) => R) =>
    (...args: A): R => {
      let result: R;
      try {
        result = hook.apply(guard, args.map(marked) as A);
      } catch (error) {
        throw ownError(name, error);
      }
      if (result instanceof Promise)
        return result.catch((error: unknown) => {
          throw ownError(name, error);
        }) as R;
      return result;
    };
  const {
    beforeModelCall,
    prepareRequest,
    aroundModelCall,
    afterModelReply,
    parseArguments,
    beforeToolCall,
    aroundExecution,
    describeError,
    afterToolBatch,
  } = guard;
  // The loop looks hooks up by presence: absent ones stay absent.
  // Read, not spread: a guard may be a class instance whose hooks live on its prototype.
  const { tools, concurrentTools } = guard;
  return {
    name: guard.name,
    ...(tools === undefined ? {} : { tools }),
    ...(concurrentTools === undefined ? {} : { concurrentTools }),
    ...(beforeModelCall === undefined ? {} : { beforeModelCall: fence(beforeModelCall) }),
    ...(prepareRequest === undefined ? {} : { prepareRequest: fence(prepareRequest) }),
    ...(aroundModelCall === undefined ? {} : { aroundModelCall: fence(aroundModelCall) }),
    ...(afterModelReply === undefined ? {} : { afterModelReply: fence(afterModelReply) }),
    ...(parseArguments === undefined ? {} : { parseArguments: fence(parseArguments) }),
    ...(beforeToolCall === undefined ? {} : { beforeToolCall: fence(beforeToolCall) }),
    ...(aroundExecution === undefined ? {} : { aroundExecution: fence(aroundExecution) }),
    ...(describeError === undefined ? {} : { describeError: fence(describeError) }),
    ...(afterToolBatch === undefined ? {} : { afterToolBatch: fence(afterToolBatch) }),
  };
}

function ownError(name: string, error: unknown): unknown {
  if (error instanceof GuardThrew) return error;
  if (typeof error === 'object' && error !== null && passedThrough.has(error)) return error;
  return new GuardThrew(name, error);
}

/** A function argument (a hook's `next`) whose throws and rejections are marked as not the hook's own. */
function marked(arg: unknown): unknown {
  if (typeof arg !== 'function') return arg;
  const next = arg as (...args: unknown[]) => unknown;
  const mark = (error: unknown): never => {
    if (typeof error === 'object' && error !== null) passedThrough.add(error);
    throw error;
  };
  return (...args: unknown[]) => {
    let result: unknown;
    try {
      result = next(...args);
    } catch (error) {
      mark(error);
    }
    return result instanceof Promise ? result.catch(mark) : result;
  };
}
