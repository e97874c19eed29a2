import { z } from 'zod';
import type { ModelRequest } from '../../model/model-client.js';
import { defineGuard } from '../define-guard.js';
import type { Guard, ModelCallResult } from '../guard.js';
import { classifyModelError, describeModelError, errorStatus } from '../model-errors.js';

/** The part of a request its configuration decides: which model, and how long a reply may be. */
interface ModelConfig {
  readonly model: string;
  readonly maxTokens: number;
}

const configOf = (request: ModelRequest): ModelConfig => ({ model: request.model, maxTokens: request.max_tokens });
const sameConfig = (a: ModelConfig, b: ModelConfig) => a.model === b.model && a.maxTokens === b.maxTokens;
const describe = (config: ModelConfig) => `${config.model}, max_tokens ${config.maxTokens}`;
const withConfig = (request: ModelRequest, config: ModelConfig): ModelRequest => ({
  ...request,
  model: config.model,
  max_tokens: config.maxTokens,
});

/**
 * Whether the API refused the call for what it asked rather than for how it went: a model
 * that does not exist (404), or a request it will not take (400, such as a `max_tokens`
 * over the model's limit). Only such a refusal can be the configuration's doing.
 */
function refusedAsConfigured(error: unknown): boolean {
  return classifyModelError(error) === 'unknown_model' || errorStatus(error) === 400;
}

/**
 * Last-known-good configuration: after every call that succeeds, the configuration it was
 * sent with (model and `max_tokens`) is saved. When the configuration changes (a reload, a
 * flag, a deploy) and the API refuses a call sent with it as configured (an unknown model,
 * an invalid request), the call is sent again with the last known good configuration; if
 * that succeeds, the new configuration is set aside for the rest of the run, and every call
 * that would use it gets the good one instead, until the configuration changes again. One
 * `agent.config.rolled_back` event per configuration set aside. A refusal the good
 * configuration meets as well was not the configuration's doing: the original error is
 * passed on, for recovery or the loop to answer.
 *
 * It cannot mend what the request does not carry: a wrong base URL or key lives in the
 * client, and fails as a connection or authentication error.
 *
 * @example
 * lastKnownGood()
 */
export function lastKnownGood(): Guard {
  let good: ModelConfig | null = null;
  const setAside: ModelConfig[] = [];
  return {
    name: 'rollback',
    async aroundModelCall(ctx, request, next) {
      const asked = configOf(request);
      if (good !== null && setAside.some((config) => sameConfig(config, asked))) {
        return remember(await next(withConfig(request, good)), good);
      }
      const result = await next(request);
      if (result.kind !== 'error' || good === null || sameConfig(good, asked) || !refusedAsConfigured(result.error)) {
        return remember(result, asked);
      }
      const known: ModelConfig = good;
      const retried = await next(withConfig(request, known));
      if (retried.kind !== 'reply') return result;
      setAside.push(asked);
      ctx.emit({
        type: 'agent.config.rolled_back',
        at: ctx.clock.now(),
        from: describe(asked),
        to: describe(known),
        reason: describeModelError(result.error),
      });
      return retried;
    },
  };

  function remember(result: ModelCallResult, config: ModelConfig): ModelCallResult {
    if (result.kind === 'reply') good = config;
    return result;
  }
}

/** Last-known-good configuration in an arm. */
export const lastKnownGoodGuard = defineGuard({
  name: 'rollback',
  settings: z.strictObject({}),
  events: ['agent.config.rolled_back'],
  build: () => lastKnownGood(),
});
