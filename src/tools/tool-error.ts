/**
 * Every code a tool error can carry, in one list (`ToolErrorCode` is read from it). The last,
 * `cancelled`, is a run whose abort signal fired: never retried.
 */
export const TOOL_ERROR_CODES = [
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
  'cancelled',
] as const;

/**
 * The errors a tool call can end in. Whether an error is worth retrying is data on the
 * error (`retryable`), read by one function (`isRetryable` in loop/guards/error-classification).
 *
 * @example
 * const code: ToolErrorCode = response.status === 404 ? 'not_found' : 'server_error';
 */
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/**
 * A failed tool call as a value: a code, an HTTP-like status, whether a retry may help
 * (`retryable`, from the code), and a server-requested wait.
 *
 * @example
 * return { kind: 'error', error: new ToolError('rate_limited', 'slow down', { status: 429, retryAfterMs: 2000 }), latencyMs: 12, fault: null };
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  readonly code: ToolErrorCode;
  /** HTTP-like status, when the failure has one. */
  readonly status: number | undefined;
  /** Transient failures may succeed if retried; permanent ones will not. */
  readonly retryable: boolean;
  /** Server-requested wait before retrying (429), in ms. */
  readonly retryAfterMs: number | undefined;
  /**
   * For a write: false when a read-back showed it did not take effect (so a retry cannot
   * repeat it); undefined when nobody knows, as after most failures.
   */
  readonly applied: false | undefined;

  constructor(
    code: ToolErrorCode,
    message: string,
    options: { status?: number; retryAfterMs?: number; applied?: false } = {},
  ) {
    // Tool errors are values handed back to the model, made thousands of times a second;
    // a stack trace would be their most expensive part and is never read.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.applied = options.applied;
    this.retryable = TRANSIENT_CODES.has(code);
  }
}

const TRANSIENT_CODES: ReadonlySet<ToolErrorCode> = new Set([
  'timeout',
  'connection_refused',
  'connection_reset',
  'rate_limited',
  'server_error',
  'malformed_response',
]);

/**
 * Thrown by tool handlers for a request the tool rejects (HTTP 400).
 *
 * @example
 * if (typeof input['limit'] !== 'number') throw invalidInput("'limit' must be a number");
 */
export function invalidInput(message: string): ToolError {
  return new ToolError('invalid_input', message, { status: 400 });
}

/**
 * Thrown by tool handlers when the thing asked for does not exist (HTTP 404).
 *
 * @example
 * const user = world.records['users']?.[id];
 * if (user === undefined) throw notFound(`no user '${id}'`);
 */
export function notFound(message: string): ToolError {
  return new ToolError('not_found', message, { status: 404 });
}
