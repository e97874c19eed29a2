import { ToolError, type ToolErrorCode } from '../tools/tool-error.js';

const CODES: ReadonlySet<string> = new Set<ToolErrorCode>([
  'timeout',
  'connection_refused',
  'connection_reset',
  'rate_limited',
  'server_error',
  'malformed_response',
  'unauthorized',
  'forbidden',
  'invalid_input',
  'not_found',
  'handler_exception',
]);

const BY_STATUS: ReadonlyArray<readonly [(status: number) => boolean, ToolErrorCode]> = [
  [(s) => s === 429, 'rate_limited'],
  [(s) => s === 408, 'timeout'],
  [(s) => s >= 500, 'server_error'],
  [(s) => s === 401, 'unauthorized'],
  [(s) => s === 403, 'forbidden'],
  [(s) => s === 404, 'not_found'],
  [(s) => s >= 400, 'invalid_input'],
];

const BY_NODE_CODE: Readonly<Record<string, ToolErrorCode>> = {
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_SOCKET: 'connection_reset',
};

/**
 * What a thrown tool error is, for error classification: a `ToolError` as it is (or carried
 * as `error.error`, as a harness tool failure carries it); one that
 * names a ToolError code, an HTTP status (`status`, `statusCode`) or a Node network code
 * (`ETIMEDOUT`, `ECONNRESET`, ...) read as such; a `TimeoutError`/`AbortError` is a
 * timeout; anything else is the tool's own exception, which a retry will not cure.
 *
 * @example
 * toolErrorOf(Object.assign(new Error('slow down'), { status: 429 })).retryable // true
 * toolErrorOf(new Error('no such order')).retryable // false
 */
export function toolErrorOf(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const cause = (typeof fields['cause'] === 'object' && fields['cause'] !== null ? fields['cause'] : {}) as Record<
    string,
    unknown
  >;
  // A failure that carries its ToolError (the harness's tools.call), from any copy of spiralbench.
  const carried = fields['error'];
  if (
    typeof carried === 'object' &&
    carried !== null &&
    CODES.has(String((carried as Record<string, unknown>)['code']))
  )
    return toolErrorOf(Object.assign(new Error(message), carried, { message }));
  const named = fields['code'];
  if (typeof named === 'string' && CODES.has(named))
    return new ToolError(named as ToolErrorCode, message, statusOf(fields));
  const status = statusOf(fields).status;
  if (status !== undefined) {
    const code = BY_STATUS.find(([match]) => match(status))?.[1];
    if (code !== undefined) return new ToolError(code, message, statusOf(fields));
  }
  const nodeCode = [fields['code'], cause['code']].find((value) => typeof value === 'string' && value in BY_NODE_CODE);
  if (typeof nodeCode === 'string') return new ToolError(BY_NODE_CODE[nodeCode]!, message);
  if (fields['name'] === 'TimeoutError' || fields['name'] === 'AbortError') return new ToolError('timeout', message);
  return new ToolError('handler_exception', message);
}

function statusOf(fields: Record<string, unknown>): { status?: number; retryAfterMs?: number } {
  const status = [fields['status'], fields['statusCode']].find((value) => typeof value === 'number');
  const retryAfterMs = fields['retryAfterMs'];
  return {
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof retryAfterMs === 'number' ? { retryAfterMs } : {}),
  };
}
