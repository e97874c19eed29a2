import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk/core/error';

/**
 * A framework's model-call error as the Anthropic SDK's own class, the one shape LLM-call
 * recovery reads (`classifyModelError`): an HTTP status (`status`, or the AI SDK's
 * `statusCode`) with its headers and body becomes the SDK's class for that status; a
 * failure without a response (the AI SDK's "Cannot connect to API", another copy of the
 * SDK's APIConnectionError) a connection error or timeout. Anything else is returned as
 * it is, which recovery leaves to the framework.
 *
 * @example
 * modelErrorOf(new APICallError({ message: 'Overloaded', statusCode: 529, responseHeaders: {}, url, requestBodyValues: {} }))
 * // an OverloadedError: recovery backs off and retries
 */
export function modelErrorOf(error: unknown): unknown {
  if (error instanceof APIError || typeof error !== 'object' || error === null) return error;
  const fields = error as Record<string, unknown>;
  const name = typeof fields['name'] === 'string' ? fields['name'] : '';
  const message = typeof fields['message'] === 'string' ? fields['message'] : String(error);
  const status = [fields['status'], fields['statusCode']].find((value) => typeof value === 'number');
  if (typeof status === 'number')
    return APIError.generate(
      status,
      bodyOf(fields),
      message,
      headersOf(fields['headers'] ?? fields['responseHeaders']),
    );
  if (/timeout/i.test(name) || /timed out/i.test(message)) return new APIConnectionTimeoutError({ message });
  const retryable = fields['isRetryable'] === true;
  if (/connection/i.test(name) || (retryable && /cannot connect/i.test(message)))
    return new APIConnectionError({ message, cause: error instanceof Error ? error : undefined });
  return error;
}

/** The error body: the SDK's `error`, or the AI SDK's `responseBody` text parsed. */
function bodyOf(fields: Record<string, unknown>): object | undefined {
  if (typeof fields['error'] === 'object' && fields['error'] !== null) return fields['error'];
  const text = fields['responseBody'];
  if (typeof text !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function headersOf(value: unknown): Headers {
  if (value instanceof Headers) return value;
  const headers = new Headers();
  if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) if (typeof item === 'string') headers.set(key, item);
  return headers;
}
