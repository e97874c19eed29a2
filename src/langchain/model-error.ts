import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk/core/error';

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * A model-call error from LangChain as the Anthropic SDK error our recovery guard reads.
 * `@langchain/anthropic` bundles its own copy of the SDK, so its `RateLimitError` is not
 * ours (`instanceof` fails); its status, body and headers are the same, and the SDK's own
 * `APIError.generate` makes the matching class of ours from them. A connection failure
 * (no status) keeps its kind by name. Anything else is handed on as it is.
 *
 * @example
 * anthropicModelError(langchainRateLimitError) instanceof RateLimitError // true (ours)
 */
export function anthropicModelError(error: unknown): unknown {
  if (error instanceof APIError) return error;
  const status = field(error, 'status');
  const headers = field(error, 'headers');
  const name = field(error, 'name');
  if (typeof status === 'number' && headers instanceof Headers) {
    const body = field(error, 'error') as Record<string, unknown> | undefined;
    return APIError.generate(status, body, undefined, headers);
  }
  if (name === 'APIConnectionTimeoutError') return new APIConnectionTimeoutError();
  if (name === 'APIConnectionError')
    return new APIConnectionError({ message: error instanceof Error ? error.message : String(error) });
  return error;
}
