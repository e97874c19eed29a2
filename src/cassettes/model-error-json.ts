import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk/core/error';
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared';

/** A failed model call as a cassette keeps it: enough to raise the same SDK error again. */
export type StoredModelError =
  | {
      readonly kind: 'api';
      readonly status: number | null;
      readonly body: unknown;
      readonly headers: Readonly<Record<string, string>>;
      readonly type: string | null;
    }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'connection'; readonly cause: string }
  | { readonly kind: 'other'; readonly name: string; readonly message: string };

/**
 * Whether a cassette keeps a response header: only those a client reads to decide what to
 * do next (the body's type, the request id it quotes in errors, when to retry, the rate
 * limit left). A cassette is meant for a repository, and a server's other headers may
 * name the account (an organization or project id) or carry a session (a cookie).
 */
export function isKeptHeader(name: string): boolean {
  return KEPT_HEADERS.has(name) || /^(anthropic-ratelimit-|x-ratelimit-)/.test(name);
}

const KEPT_HEADERS = new Set([
  'content-type',
  'request-id',
  'x-request-id',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
]);

/** The innermost cause's message: what a connection error says refused it. */
function rootCause(error: Error): string {
  let found = '';
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause)
    if (cause.message !== '') found = cause.message;
  return found;
}

/**
 * A model-call error as JSON. Headers are kept (a `retry-after` drives recovery) but a
 * real client's never carry its key: the key is sent, not answered.
 */
export function storedModelError(error: unknown): StoredModelError {
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof APIConnectionError) return { kind: 'connection', cause: rootCause(error) };
  if (error instanceof APIError) {
    const headers: Record<string, string> = {};
    error.headers?.forEach((value: string, name: string) => {
      if (isKeptHeader(name)) headers[name] = value;
    });
    return { kind: 'api', status: error.status ?? null, body: error.error ?? null, headers, type: error.type };
  }
  if (error instanceof Error) return { kind: 'other', name: error.name, message: error.message };
  return { kind: 'other', name: typeof error, message: String(error) };
}

/** The SDK error a stored one stands for, of the same class, status, body and headers. */
export function modelErrorOf(stored: StoredModelError): Error {
  switch (stored.kind) {
    case 'timeout':
      return new APIConnectionTimeoutError();
    case 'connection':
      return new APIConnectionError({
        cause: stored.cause === '' ? undefined : new TypeError('fetch failed', { cause: new Error(stored.cause) }),
      });
    case 'api': {
      const headers = new Headers(stored.headers);
      // A stream's `event: error` frame has no status: the SDK raises the base class with the body's type.
      if (stored.status === null)
        return new APIError(
          undefined,
          stored.body as object,
          undefined,
          headers,
          (stored.type ?? undefined) as ErrorType,
        );
      return APIError.generate(stored.status, stored.body as object, undefined, headers);
    }
    case 'other': {
      const error = new Error(stored.message);
      error.name = stored.name;
      return error;
    }
  }
}
