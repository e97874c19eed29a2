import type { FaultKind } from '../tools/tool-fault.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { ToolError, type ToolErrorCode } from '../tools/tool-error.js';
import { tryParseJson } from '../scenarios/parse-json.js';
import { networkFailureOf } from '../tools/network-failure.js';

/**
 * A request that never produced a response, classified by what the network said: an
 * abort by the client's timeout (`AbortSignal.timeout` → TimeoutError; a caller's abort →
 * AbortError) or a socket error code anywhere in the cause chain.
 */
export function toolErrorFromNetwork(tool: string, error: unknown, timeoutMs: number): ToolError {
  const failure = networkFailureOf(error);
  if (failure?.kind === 'aborted')
    return new ToolError('timeout', `${tool}: request timed out after ${timeoutMs} ms (${failure.name})`);
  if (failure?.kind === 'code') {
    if (failure.code === 'timeout')
      return new ToolError('timeout', `${tool}: request timed out after ${timeoutMs} ms (${failure.name})`);
    if (failure.code === 'connection_refused')
      return new ToolError('connection_refused', `${tool}: connect ${failure.name} (${messageOf(failure.link)})`);
    return new ToolError('connection_reset', `${tool}: socket hang up (${failure.name}) after the request was sent`);
  }
  if (failure?.kind === 'fetch_failed')
    return new ToolError('connection_reset', `${tool}: fetch failed (${messageOf(failure.cause)})`);
  return new ToolError('handler_exception', `Tool '${tool}' failed: ${messageOf(error)}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Tool errors an application reports in its error body; network-level ones are read from the status. */
const APPLICATION_CODES: ReadonlySet<ToolErrorCode> = new Set([
  'invalid_input',
  'not_found',
  'forbidden',
  'unauthorized',
  'handler_exception',
]);

/**
 * An HTTP error response, classified by its status (429 → rate limited with its
 * Retry-After, 5xx → server error, 401/403/400/404), refined by the structured error body
 * an application sends (`{"error": {"code", "message"}}`) for its own failures.
 */
export function toolErrorFromStatus(tool: string, status: number, headers: Headers, body: string): ToolError {
  const parsed = tryParseJson(body);
  const error = parsed.ok
    ? (parsed.value as { error?: { code?: unknown; message?: unknown } } | null)?.error
    : undefined;
  const code =
    typeof error?.code === 'string' && APPLICATION_CODES.has(error.code as ToolErrorCode)
      ? (error.code as ToolErrorCode)
      : undefined;
  const message = typeof error?.message === 'string' ? error.message : undefined;
  if (status === 429) {
    const retryAfterMs = retryAfter(headers);
    const said = retryAfterMs === undefined ? '' : ` (retry-after: ${retryAfterMs / 1000}s)`;
    return new ToolError('rate_limited', `${tool}: HTTP 429 Too Many Requests${said}`, {
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (code !== undefined && message !== undefined) return new ToolError(code, message, { status });
  if (status >= 500)
    return new ToolError('server_error', `${tool}: HTTP ${status} ${STATUS_TEXT[status] ?? 'Server Error'}`, {
      status,
    });
  const byStatus: ToolErrorCode =
    status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status === 404 ? 'not_found' : 'invalid_input';
  return new ToolError(byStatus, message ?? `${tool}: HTTP ${status}`, { status });
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `retry-after-ms` when the server sends it, else `retry-after` in seconds (RFC 9110); an HTTP date is not used here. */
function retryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const seconds = Number(headers.get('retry-after') ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * The fault a client can tell it met, from what came back: the same names the flaky
 * tool decides with, so a live run's faults compare one for one with a virtual run's.
 * A reset after the request was sent is how a partial write shows itself.
 */
export function observedFault(execution: ToolExecution): FaultKind | null {
  if (execution.kind === 'ok') return tryParseJson(execution.content).ok ? null : 'malformed_json';
  return FAULT_BY_CODE[execution.error.code] ?? null;
}

const FAULT_BY_CODE: Partial<Record<ToolErrorCode, FaultKind>> = {
  timeout: 'timeout',
  connection_refused: 'connection_refused',
  rate_limited: 'rate_limit',
  server_error: 'server_error',
  connection_reset: 'partial_write',
  unauthorized: 'unauthorized',
};
