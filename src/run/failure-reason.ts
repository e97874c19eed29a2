import { APIError } from '@anthropic-ai/sdk/core/error';
import { errorClassName, errorStatus } from '../loop/model-errors.js';
import type { RunOutcome } from '../loop/outcome.js';
import type { FailureReason } from '../results/field-schemas.js';

/** Longest message a record keeps: a proxy's error page would otherwise fill the line. */
const MAX_MESSAGE = 500;

/**
 * The record's account of the error that ended a run. Errors of a real client reach here
 * already scrubbed of its key (`withRedactedErrors`), so nothing is scrubbed again.
 *
 * @example
 * failureReason(new APIConnectionError({ cause })) // { error_class: 'APIConnectionError', status: null, message: 'Connection error. (connect ECONNREFUSED 127.0.0.1:9)' }
 */
export function failureReason(error: unknown): FailureReason {
  const message = errorMessage(error).replace(/\s+/g, ' ').trim();
  return {
    error_class: errorClassName(error),
    status: errorStatus(error),
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message,
  };
}

/** A record's `failure_reason` field: on a run an error ended, and on no other (whose record so keeps its bytes). */
export function failureField(outcome: RunOutcome): { readonly failure_reason?: FailureReason } {
  return outcome.kind === 'failed' && outcome.error !== undefined
    ? { failure_reason: failureReason(outcome.error) }
    : {};
}

/** A failure reason in one line, e.g. `AuthenticationError (HTTP 401): invalid x-api-key`. */
export function describeFailure(reason: FailureReason): string {
  return `${reason.error_class} (${reason.status === null ? 'no HTTP status' : `HTTP ${reason.status}`}): ${reason.message}`;
}

function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The server's own words without the SDK's "401 {...}" framing, as describeModelError reads them.
  const own = error instanceof APIError ? (error.apiMessage ?? error.message) : error.message;
  // A connection error says only "Connection error."; what refused it is at the end of its causes.
  const root = rootCause(error);
  return root === '' || own.includes(root) ? own : `${own} (${root})`;
}

/** The message (or, lacking one, the code) of the innermost cause that has either; '' when none does. */
function rootCause(error: Error): string {
  let found = '';
  const seen = new Set<unknown>();
  for (let cause: unknown = error.cause; cause instanceof Error && !seen.has(cause); cause = cause.cause) {
    seen.add(cause);
    const code = (cause as { readonly code?: unknown }).code;
    const text = cause.message !== '' ? cause.message : typeof code === 'string' ? code : '';
    if (text !== '') found = text;
  }
  return found;
}
