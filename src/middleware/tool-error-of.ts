import { networkFailureOf } from '../tools/network-failure.js';
import { TOOL_ERROR_CODES, ToolError, type ToolErrorCode } from '../tools/tool-error.js';

const CODES: ReadonlySet<string> = new Set<string>(TOOL_ERROR_CODES);

const BY_STATUS: ReadonlyArray<readonly [(status: number) => boolean, ToolErrorCode]> = [
  [(s) => s === 429, 'rate_limited'],
  [(s) => s === 408, 'timeout'],
  [(s) => s >= 500, 'server_error'],
  [(s) => s === 401, 'unauthorized'],
  [(s) => s === 403, 'forbidden'],
  [(s) => s === 404, 'not_found'],
  [(s) => s >= 400, 'invalid_input'],
];

/**
 * What a thrown tool error is, for error classification: a `ToolError` as it is (or carried
 * as `error.error`, as a harness tool failure carries it); one that names a ToolError
 * code; an HTTP status (`status`, `statusCode`, or an axios-style `response.status`, with a
 * 429's `retry-after` from `retryAfterMs` or the response's headers); a JSON.parse
 * `SyntaxError` as a malformed response; a network failure anywhere in the cause chain
 * (undici/Node codes, a bare `fetch failed`, a `TimeoutError`) as the network error it is;
 * an `AbortError` as a timeout, or as a cancellation once `signal` (the run's) is aborted;
 * anything else is the tool's own exception, which a retry will not cure.
 *
 * @example
 * toolErrorOf(Object.assign(new Error('slow down'), { status: 429 })).retryable // true
 * toolErrorOf(new Error('no such order')).retryable // false
 */
export function toolErrorOf(error: unknown, signal?: AbortSignal): ToolError {
  if (error instanceof ToolError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  // A failure that carries its ToolError (the harness's tools.call), from any copy of spiralbench.
  const carried = fields['error'];
  if (
    typeof carried === 'object' &&
    carried !== null &&
    CODES.has(String((carried as Record<string, unknown>)['code']))
  )
    return toolErrorOf(Object.assign(new Error(message), carried, { message }), signal);
  const named = fields['code'];
  if (typeof named === 'string' && CODES.has(named))
    return new ToolError(named as ToolErrorCode, message, statusOf(fields));
  const status = statusOf(fields);
  if (status.status !== undefined) {
    const code = BY_STATUS.find(([match]) => match(status.status!))?.[1];
    if (code !== undefined) return new ToolError(code, message, status);
  }
  if (fields['name'] === 'SyntaxError') return new ToolError('malformed_response', message);
  const network = networkFailureOf(error);
  if (network?.kind === 'aborted')
    return new ToolError(network.name === 'AbortError' && signal?.aborted ? 'cancelled' : 'timeout', message);
  if (network?.kind === 'code') return new ToolError(network.code, message);
  if (network?.kind === 'fetch_failed') return new ToolError('connection_reset', message);
  if (signal?.aborted) return new ToolError('cancelled', message);
  return new ToolError('handler_exception', message);
}

function statusOf(fields: Record<string, unknown>): { status?: number; retryAfterMs?: number } {
  const response = (
    typeof fields['response'] === 'object' && fields['response'] !== null ? fields['response'] : {}
  ) as Record<string, unknown>;
  const status = [fields['status'], fields['statusCode'], response['status']].find(
    (value) => typeof value === 'number',
  );
  const given = fields['retryAfterMs'];
  const retryAfterMs =
    typeof given === 'number'
      ? given
      : status === 429
        ? retryAfterOf(response['headers'] ?? fields['headers'])
        : undefined;
  return {
    ...(typeof status === 'number' ? { status } : {}),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** `retry-after-ms`, else `retry-after` in seconds, from a `Headers` or a plain header object (axios). */
function retryAfterOf(headers: unknown): number | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const get = (name: string): unknown =>
    typeof (headers as { get?: unknown }).get === 'function'
      ? (headers as { get: (name: string) => unknown }).get(name)
      : (headers as Record<string, unknown>)[name];
  const ms = Number(get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const seconds = Number(get('retry-after') ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
