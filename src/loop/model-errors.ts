import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  ContentTooLargeError,
  InternalServerError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
} from '@anthropic-ai/sdk/core/error';

/**
 * What a failed model call means for the caller:
 * - `auth`: the key, its permissions or the bill; retrying cannot help;
 * - `rate_limit`: the API asks the caller to slow down (429, with `retry-after`);
 * - `transient`: a timeout, a dropped connection, a 5xx or 529 overloaded, or a stream the
 *   server ended with an `overloaded_error` or `api_error` event; may pass;
 * - `unknown_model`: the model id does not exist (404); another model may;
 * - `too_large`: the request is over the size limit (413); only a smaller request helps;
 * - `other`: anything else (an invalid request, a cancellation, a bug): not recoverable here.
 */
export type ModelErrorClass = 'auth' | 'rate_limit' | 'transient' | 'unknown_model' | 'too_large' | 'other';

/** Spend limits arrive as 429s (subclasses of RateLimitError) but are billing: waiting does not lift them. */
const SPEND_LIMIT_CODES: ReadonlySet<string> = new Set([
  'contract_spend_limit_reached',
  'enforced_spend_limit_reached',
]);

/** Error types of a mid-stream `event: error` that a retry may get past. */
const STREAM_TRANSIENT_TYPES: ReadonlySet<string> = new Set(['overloaded_error', 'api_error']);

/** The one place that reads a model-call error, by the Anthropic SDK's own error classes. */
export function classifyModelError(error: unknown): ModelErrorClass {
  if (!(error instanceof APIError)) return 'other';
  if (
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError ||
    error instanceof PaymentRequiredError
  )
    return 'auth';
  if (error.type === 'billing_error' || (error.errorCode !== null && SPEND_LIMIT_CODES.has(error.errorCode)))
    return 'auth';
  if (error instanceof RateLimitError) return 'rate_limit';
  // APIConnectionTimeoutError is an APIConnectionError; OverloadedError (529) and the 503/504 classes are InternalServerErrors.
  if (
    error instanceof APIConnectionError ||
    error instanceof InternalServerError ||
    error instanceof RequestTimeoutError
  )
    return 'transient';
  if (error instanceof NotFoundError) return 'unknown_model';
  // An `event: error` frame mid-stream: the SDK raises the base APIError with no status; its
  // type says what a status would have (overloaded_error is the 529, api_error the 500).
  if (error.status === undefined && STREAM_TRANSIENT_TYPES.has(error.type ?? '')) return 'transient';
  if (error instanceof ContentTooLargeError) return 'too_large';
  return 'other';
}

/** The class of the SDK error (e.g. `OverloadedError`), or of whatever was thrown. */
export function errorClassName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/** HTTP status of a model-call error; null when there was no response (connection, timeout). */
export function errorStatus(error: unknown): number | null {
  return error instanceof APIError && typeof error.status === 'number' ? error.status : null;
}

/**
 * A model-call error in one line for outcomes and events, e.g.
 * `OverloadedError (HTTP 529 overloaded_error): Overloaded` or
 * `APIConnectionTimeoutError: Request timed out.`
 */
export function describeModelError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (
    error instanceof APIError &&
    error.status === undefined &&
    error.type !== null &&
    !(error instanceof APIConnectionError)
  ) {
    return `${error.name} (stream error ${error.type}): ${error.apiMessage ?? error.message}`;
  }
  if (!(error instanceof APIError) || error.status === undefined) return `${error.name}: ${error.message}`;
  const type = error.type === null ? '' : ` ${error.type}`;
  return `${error.name} (HTTP ${error.status}${type}): ${error.apiMessage ?? error.message}`;
}

/** The wait the server asked for, in ms: `retry-after-ms`, else `retry-after` in seconds (an HTTP date is ignored: virtual time has no calendar). */
export function retryAfterMs(error: unknown): number | null {
  if (!(error instanceof APIError) || error.headers === undefined) return null;
  const ms = Number(error.headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const seconds = Number(error.headers.get('retry-after') ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}
