import type { MaybePromise } from '../../tools/maybe-promise.js';
import type { ExecutionContext } from '../guard.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { ToolError, type ToolErrorCode } from '../../tools/tool-error.js';
import { tryParseJson } from '../../scenarios/parse-json.js';
import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { Guard } from '../guard.js';

export interface ErrorClassificationOptions {
  /** Automatic retries of a transient failure of an idempotent tool. @default 3 */
  readonly maxRetries?: number;
  /** Wait before each retry, in ms; a longer retry-after wins. @default [1000, 2000, 4000] */
  readonly backoffMs?: readonly number[];
}

export type ErrorClass = 'transient' | 'permanent';

/** The one place that decides whether a tool failure is worth retrying. */
export function classify(error: ToolError): ErrorClass {
  return error.retryable ? 'transient' : 'permanent';
}

const LABELS: Record<ToolErrorCode, string> = {
  timeout: 'Network timeout',
  connection_refused: 'Connection refused',
  connection_reset: 'Connection reset',
  rate_limited: 'Rate limited (HTTP 429)',
  server_error: 'Server error',
  malformed_response: 'Malformed response',
  unauthorized: 'Not authorised (HTTP 401)',
  forbidden: 'Forbidden (HTTP 403)',
  invalid_input: 'Invalid arguments (HTTP 400)',
  not_found: 'Not found (HTTP 404)',
  handler_exception: 'Tool error',
  cancelled: 'Cancelled',
};

/** A body that does not parse is a transient failure: the tool's answer never arrived whole. */
function checkBody(execution: ToolExecution, tool: string): ToolExecution {
  if (execution.kind !== 'ok' || tryParseJson(execution.content).ok) return execution;
  return { kind: 'error', error: malformedError(tool), latencyMs: execution.latencyMs, fault: execution.fault };
}

/**
 * The error of a cut-off body says only which tool sent it, so there is one per tool name
 * (only tools a host ran get here: as many as the sweep's scenarios have), frozen: shared
 * by every run, it cannot carry anything from one into another.
 */
const malformedErrors = new Map<string, ToolError>();
function malformedError(tool: string): ToolError {
  let error = malformedErrors.get(tool);
  if (error === undefined) {
    error = Object.freeze(new ToolError('malformed_response', `${tool} returned a body that is not valid JSON`));
    malformedErrors.set(tool, error);
  }
  return error;
}

/**
 * The retries from attempt `from` on, given the execution before it: synchronously while
 * `next` answers with values, awaiting only from the first promise on. Either way the
 * retries, their events and their virtual waits come in the same order at the same times.
 */
function retried(
  ctx: ExecutionContext,
  next: () => MaybePromise<ToolExecution>,
  before: ToolExecution,
  from: number,
  maxRetries: number,
  backoffMs: readonly number[],
): MaybePromise<ToolExecution> {
  const tool = ctx.call.name;
  let execution = checkBody(before, tool);
  for (let attempt = from; attempt <= maxRetries; attempt++) {
    if (execution.kind !== 'error' || ctx.traits.sideEffecting || classify(execution.error) !== 'transient') break;
    const delayMs = Math.max(
      backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 0,
      execution.error.retryAfterMs ?? 0,
    );
    ctx.emit({ type: 'agent.tool.retry', at: ctx.clock.now(), tool, attempt, delayMs, code: execution.error.code });
    ctx.clock.sleep(delayMs);
    const answer = next();
    if (answer instanceof Promise)
      return answer.then((done) => retried(ctx, next, done, attempt + 1, maxRetries, backoffMs));
    execution = checkBody(answer, tool);
  }
  return execution;
}

/**
 * Classifies tool failures as transient or permanent. Transient failures of idempotent
 * tools are retried here, with backoff, before the model sees them; side-effecting tools
 * are never retried automatically. The result the model sees names the class in plain words.
 *
 * @example
 * errorClassification({ maxRetries: 3, backoffMs: [1000, 2000, 4000] })
 */
export function errorClassification({
  maxRetries = errorClassificationGuard.defaults.maxRetries,
  backoffMs = errorClassificationGuard.defaults.backoffMs,
}: ErrorClassificationOptions = {}): Guard {
  return {
    name: 'classify',
    aroundExecution(ctx, next) {
      const answer = next();
      return answer instanceof Promise
        ? answer.then((done) => retried(ctx, next, done, 1, maxRetries, backoffMs))
        : retried(ctx, next, answer, 1, maxRetries, backoffMs);
    },
    describeError(error, ctx) {
      const label = LABELS[error.code];
      if (classify(error) === 'permanent') {
        return `Error: Permanent failure: ${label}: ${error.message}. Do not retry with the same arguments.`;
      }
      // A write a read-back showed was not applied is as safe to retry as a read.
      if (ctx.traits.sideEffecting && error.applied !== false) {
        return `Error: ${label}: ${error.message}. The operation may have been applied; check before retrying.`;
      }
      return `Error: ${label}: ${error.message}. May succeed if retried.`;
    },
  };
}

/** Error classification in an arm: three retries at 1 s, 2 s, 4 s by default. */
export const errorClassificationGuard = defineGuard({
  name: 'classify',
  settings: z.strictObject({
    maxRetries: z.number().int().min(0).default(3),
    backoffMs: z.array(z.number().int().min(0)).min(1).default([1000, 2000, 4000]),
  }),
  events: ['agent.tool.retry'],
  build: (settings) => errorClassification(settings),
});
