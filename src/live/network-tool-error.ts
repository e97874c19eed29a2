import type { FaultKind } from '../tools/tool-fault.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { ToolError, type ToolErrorCode } from '../tools/tool-error.js';
import { tryParseJson } from '../scenarios/parse-json.js';

/**
 * Node / undici error codes, by the tool error they mean. A real HTTP client meets these
 * where the simulated tools throw a ToolError; mapping them here gives a live failure the
 * same class (and so the same retry decision) as the simulated one it renders.
 */
const CODES: Readonly<Record<string, ToolErrorCode>> = {
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_CLOSED: 'connection_reset',
};

/** The error and its causes, outermost first (fetch wraps the socket error in `cause`). */
function chain(error: unknown): unknown[] {
  const links: unknown[] = [];
  for (
    let link = error;
    link !== undefined && link !== null && links.length < 8;
    link = (link as { cause?: unknown }).cause
  )
    links.push(link);
  return links;
}

/**
 * A request that never produced a response, classified by what the network said: an
 * abort by the client's timeout (`AbortSignal.timeout` → TimeoutError; a caller's abort →
 * AbortError) or a socket error code anywhere in the cause chain.
 */
export function toolErrorFromNetwork(tool: string, error: unknown, timeoutMs: number): ToolError {
  for (const link of chain(error)) {
    const name = (link as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      return new ToolError('timeout', `${tool}: request timed out after ${timeoutMs} ms (${name})`);
    const code = (link as { code?: unknown }).code;
    const known = typeof code === 'string' ? CODES[code] : undefined;
    if (known === 'timeout')
      return new ToolError(known, `${tool}: request timed out after ${timeoutMs} ms (${code as string})`);
    if (known === 'connection_refused')
      return new ToolError(known, `${tool}: connect ECONNREFUSED (${messageOf(link)})`);
    if (known === 'connection_reset')
      return new ToolError(known, `${tool}: socket hang up (${code as string}) after the request was sent`);
  }
  // `fetch failed` with no cause we know is still the network failing, not the tool.
  if (error instanceof TypeError && error.message === 'fetch failed')
    return new ToolError('connection_reset', `${tool}: fetch failed (${messageOf(error.cause)})`);
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
