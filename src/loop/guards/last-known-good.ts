import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { Guard, ModelCallResult } from '../guard.js';
import { classifyModelError, describeModelError } from '../model-errors.js';

/**
 * Last-known-good configuration: after every call of the loop's own that succeeds, the
 * model it asked for is saved. When the configuration changes (a reload, a flag, a deploy)
 * and the API answers that the model it now names does not exist (404), the call is sent
 * again with the last good model; if that succeeds, the bad model is set aside for the rest
 * of the run, and every later call that names it gets the good one instead, until the
 * configuration names another. One `agent.config.rolled_back` event per model set aside.
 *
 * Only the loop's own requests count: the model each turn's request names is read before
 * any other guard changes it (`prepareRequest`), so a compaction summary or a recovery
 * fallback, which ask for other models inside the call, is neither saved nor rolled back.
 * When the resend fails in passing (a 5xx), that failure is handed on, for recovery to
 * retry the call, which meets this guard again. When the good model is refused too, the
 * model was not the configuration's doing: the first refusal is handed on.
 *
 * It cannot mend what the request does not carry: a wrong base URL or key lives in the
 * client, and fails as a connection or authentication error.
 *
 * @example
 * lastKnownGood()
 */
export function lastKnownGood(): Guard {
  let good: string | null = null;
  /** The model this turn's request names, as the loop's configuration gave it. */
  let configured: string | null = null;
  const setAside = new Set<string>();
  const remember = (result: ModelCallResult, model: string): ModelCallResult => {
    if (result.kind === 'reply') good = model;
    return result;
  };
  return {
    name: 'rollback',
    prepareRequest(request) {
      configured = request.model;
      return request;
    },
    async aroundModelCall(ctx, request, next) {
      // A call the loop did not make as configured (a summary, a fallback) is not this guard's.
      if (request.model !== configured) return next(request);
      if (good !== null && setAside.has(request.model)) return remember(await next({ ...request, model: good }), good);
      const result = await next(request);
      if (result.kind !== 'error' || good === null || good === request.model) return remember(result, request.model);
      if (classifyModelError(result.error) !== 'unknown_model') return result;
      const known = good;
      const retried = await next({ ...request, model: known });
      if (retried.kind === 'error' && classifyModelError(retried.error) === 'unknown_model') return result;
      if (retried.kind !== 'reply') return retried;
      setAside.add(request.model);
      ctx.emit({
        type: 'agent.config.rolled_back',
        at: ctx.clock.now(),
        from: request.model,
        to: known,
        reason: describeModelError(result.error),
      });
      return retried;
    },
  };
}

/** Last-known-good configuration in an arm. */
export const lastKnownGoodGuard = defineGuard({
  name: 'rollback',
  settings: z.strictObject({}),
  events: ['agent.config.rolled_back'],
  build: () => lastKnownGood(),
});
