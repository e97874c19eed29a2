import { z } from 'zod';
import { CHEAP_MODEL_ID } from '../../model/model-table.js';
import { stream, type StreamKey } from '../../random/streams.js';
import { defineGuard } from '../define-guard.js';
import type { Guard, ModelCallResult } from '../guard.js';
import { classifyModelError, describeModelError, errorClassName, errorStatus, retryAfterMs } from '../model-errors.js';

export interface LlmRecoveryOptions {
  /** Retries of a failed call on one model before falling back (or giving up). @default 3 */
  readonly maxRetries?: number;
  /** Wait before each retry of a transient failure, in ms, before jitter. @default [1000, 2000, 4000] */
  readonly backoffMs?: readonly number[];
  /** Each backoff is scaled by a uniform factor in [1 - jitter, 1 + jitter]. @default 0.25 */
  readonly jitter?: number;
  /** Longest `retry-after` honoured, in ms; a longer one is cut to this. @default 60_000 */
  readonly retryAfterCapMs?: number;
  /** Model to switch to when the model asked for is unknown or keeps failing; null: none. @default CHEAP_MODEL_ID */
  readonly fallbackModel?: string | null;
  /** Names the jitter stream (`recover:jitter`, indexed by the run's retry count). @default a fixed key */
  readonly streamKey?: StreamKey;
}

const DEFAULT_KEY: StreamKey = Object.freeze({ sweepSeed: 0, scenario: 'llm-recovery', runSeed: 0 });

/**
 * Recovers failed model calls by what the SDK's error class says they are:
 * - authentication, permission or billing: stop at once (`failed`, with the reason);
 * - rate limit: wait what `retry-after` asks (capped), then retry;
 * - timeout, dropped connection, 5xx, 529 overloaded: back off with seeded jitter and retry;
 * - after `maxRetries` retries on one model, switch to the fallback model (once; from then
 *   on every call goes there) with a fresh set of retries;
 * - unknown model (404): switch to the fallback at once;
 * - request too large (413): left to the guards outside it (reactive compaction), or the
 *   loop, which ends the run `failed` with the error;
 * - anything else (an invalid request, a cancellation): left to the loop.
 * A run that exhausts its retries ends `failed` with a reason naming the error; its result
 * carries the conversation so far. Every retry and fallback is an event.
 *
 * @example
 * llmRecovery({ maxRetries: 3, backoffMs: [1000, 2000, 4000], jitter: 0.25, retryAfterCapMs: 60_000, fallbackModel: CHEAP_MODEL_ID })
 */
export function llmRecovery({
  maxRetries = llmRecoveryGuard.defaults.maxRetries,
  backoffMs = llmRecoveryGuard.defaults.backoffMs,
  jitter = llmRecoveryGuard.defaults.jitter,
  retryAfterCapMs = llmRecoveryGuard.defaults.retryAfterCapMs,
  fallbackModel = llmRecoveryGuard.defaults.fallbackModel,
  streamKey = DEFAULT_KEY,
}: LlmRecoveryOptions = {}): Guard {
  let fallbackActive = false;
  let retries = 0;

  const backoff = (attempt: number): number => {
    const base = backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 0;
    const u = stream(streamKey, 'recover:jitter', retries).next();
    return Math.round(base * (1 + jitter * (2 * u - 1)));
  };
  const failed = (reason: string, error: unknown): ModelCallResult => ({
    kind: 'stop',
    outcome: { kind: 'failed', reason, error },
  });

  return {
    name: 'recover',
    async aroundModelCall(ctx, original, next) {
      let request = fallbackActive && fallbackModel !== null ? { ...original, model: fallbackModel } : original;
      let attempt = 0;
      for (;;) {
        const result = await next(request);
        if (result.kind !== 'error') return result;
        const { error } = result;
        const errorClass = classifyModelError(error);
        const what = describeModelError(error);
        // A 413 is for context management (outside this guard) to answer; retrying the same request cannot help.
        if (errorClass === 'other' || errorClass === 'too_large') return result;
        if (errorClass === 'auth')
          return failed(`model call failed, not retried (authentication, permission or billing): ${what}`, error);

        const retry = errorClass !== 'unknown_model' && attempt < maxRetries;
        if (retry) {
          attempt += 1;
          const asked = errorClass === 'rate_limit' ? retryAfterMs(error) : null;
          const delayMs = asked === null ? backoff(attempt) : Math.min(asked, retryAfterCapMs);
          retries += 1;
          ctx.emit({
            type: 'agent.model.retry',
            at: ctx.clock.now(),
            model: request.model,
            attempt,
            delayMs,
            errorClass: errorClassName(error),
            status: errorStatus(error),
          });
          ctx.clock.sleep(delayMs);
          continue;
        }
        const tried = errorClass === 'unknown_model' ? 'unknown model' : `${attempt + 1} attempts`;
        if (fallbackModel === null || fallbackActive || request.model === fallbackModel) {
          return failed(`model call failed after ${tried} on ${request.model}: ${what}`, error);
        }
        fallbackActive = true;
        ctx.emit({
          type: 'agent.model.fallback',
          at: ctx.clock.now(),
          from: request.model,
          to: fallbackModel,
          reason: `${tried}: ${what}`,
        });
        request = { ...original, model: fallbackModel };
        attempt = 0;
      }
    },
  };
}

/** LLM-call recovery in an arm; its jitter is drawn from the run's streams. */
export const llmRecoveryGuard = defineGuard({
  name: 'recover',
  settings: z.strictObject({
    maxRetries: z.number().int().min(0).default(3),
    backoffMs: z.array(z.number().int().min(0)).min(1).default([1000, 2000, 4000]),
    jitter: z.number().min(0).max(1).default(0.25),
    retryAfterCapMs: z.number().min(0).default(60_000),
    fallbackModel: z.string().min(1).nullable().default(CHEAP_MODEL_ID),
  }),
  events: ['agent.model.retry', 'agent.model.fallback'],
  build: (settings, run) => llmRecovery({ ...settings, streamKey: run.streamKey }),
});
