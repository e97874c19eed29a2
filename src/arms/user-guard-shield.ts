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
  const misnamed = misnamedHooks(guard);
  if (misnamed.length > 0) {
    const threw = new GuardThrew(name, new TypeError(misnamed.join('; ')), ' in build');
    return {
      name,
      beforeModelCall: () => ({ kind: 'stop', outcome: { kind: 'failed', reason: threw.message, error: threw } }),
    };
  }
  const fence =
    <A extends unknown[], R>(hookName: HookName, hook: (...args: A) => R) =>
    (...args: A): R => {
      let result: R;
      try {
        result = hook.apply(guard, args.map(marked) as A);
      } catch (error) {
        throw ownError(name, error);
      }
      // Any falsy value (`cond && { kind: ... }`) is no decision, said as the loop reads one.
      if (!result && 'kinds' in HOOKS[hookName]) return undefined as R;
      const wrong = wrongAnswer(hookName, result);
      if (wrong !== undefined) {
        // A promise refused here may still reject: that is not the process's to crash on.
        if (result instanceof Promise) result.catch(() => {});
        throw new GuardThrew(name, new TypeError(wrong), ` in ${hookName}`);
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
    ...(beforeModelCall === undefined ? {} : { beforeModelCall: fence('beforeModelCall', beforeModelCall) }),
    ...(prepareRequest === undefined ? {} : { prepareRequest: fence('prepareRequest', prepareRequest) }),
    ...(aroundModelCall === undefined ? {} : { aroundModelCall: fence('aroundModelCall', aroundModelCall) }),
    ...(afterModelReply === undefined ? {} : { afterModelReply: fence('afterModelReply', afterModelReply) }),
    ...(parseArguments === undefined ? {} : { parseArguments: fence('parseArguments', parseArguments) }),
    ...(beforeToolCall === undefined ? {} : { beforeToolCall: fence('beforeToolCall', beforeToolCall) }),
    ...(aroundExecution === undefined ? {} : { aroundExecution: fence('aroundExecution', aroundExecution) }),
    ...(describeError === undefined ? {} : { describeError: fence('describeError', describeError) }),
    ...(afterToolBatch === undefined ? {} : { afterToolBatch: fence('afterToolBatch', afterToolBatch) }),
  };
}

/**
 * What each hook answers. A synchronous hook that returns a promise would be read as no
 * decision at all, and a decision of another kind as nothing: the arm would quietly be
 * `none`. Both are said, naming the hook, the first time they happen.
 */
const HOOKS = {
  beforeModelCall: { sync: true, kinds: ['final_turn', 'stop'] },
  prepareRequest: { sync: false },
  aroundModelCall: { sync: false },
  afterModelReply: { sync: true, kinds: ['replace', 'continue'] },
  parseArguments: { sync: true },
  beforeToolCall: { sync: true, kinds: ['answer', 'stop'] },
  aroundExecution: { sync: false },
  describeError: { sync: true },
  afterToolBatch: { sync: true, kinds: ['intervene', 'stop'] },
} as const satisfies Record<string, { readonly sync: boolean; readonly kinds?: readonly string[] }>;

type HookName = keyof typeof HOOKS;

const HOOK_NAMES: readonly string[] = Object.keys(HOOKS);

/** Why `result` is not what hook `hookName` answers; undefined when it is. */
function wrongAnswer(hookName: HookName, result: unknown): string | undefined {
  const hook: { readonly sync: boolean; readonly kinds?: readonly string[] } = HOOKS[hookName];
  if (hook.sync && result instanceof Promise)
    return `${hookName} returned a promise; it is synchronous: return the decision itself (or undefined), not a promise of it`;
  if (hook.kinds === undefined || result === undefined) return undefined;
  const kind = (result as { kind?: unknown } | null)?.kind;
  if (typeof kind === 'string' && hook.kinds.includes(kind)) return undefined;
  return `${hookName} returned ${shown(result)}; expected undefined (no decision) or a decision of kind ${hook.kinds.map((k) => `'${k}'`).join(' or ')}`;
}

function shown(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 120) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The guard's methods named as a hook but for letter case (`beforeToolcall`): the hook the
 * author meant would never run. Any other name is the guard's own business (a helper, a
 * wrapper `_beforeToolCall`). Read without calling getters.
 */
function misnamedHooks(guard: Guard): string[] {
  const misnamed = new Set<string>();
  for (let at: object | null = guard; at !== null && at !== Object.prototype; at = Object.getPrototypeOf(at))
    for (const key of Object.getOwnPropertyNames(at)) {
      if (HOOK_NAMES.includes(key)) continue;
      if (typeof Object.getOwnPropertyDescriptor(at, key)?.value !== 'function') continue;
      const meant = HOOK_NAMES.find((hook) => hook.toLowerCase() === key.toLowerCase());
      if (meant !== undefined)
        misnamed.add(`'${key}' is no hook a guard has (did you mean '${meant}'?), so it would never run`);
    }
  return [...misnamed];
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
