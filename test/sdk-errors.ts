import { APIError } from '@anthropic-ai/sdk/core/error';
import type { ModelFaultKind } from '../src/faults/model-faults.js';
import { classifyModelError } from '../src/loop/model-errors.js';
import type { ModelClient, ModelRequest } from '../src/model/model-client.js';

/** The error a model call rejects with; fails when the call succeeds. */
export async function rejectionOf(client: ModelClient, request: ModelRequest): Promise<unknown> {
  try {
    await client.create(request);
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

/** What a caller can read of an Anthropic SDK error, and how recovery classifies it. */
export function visibleError(error: unknown) {
  if (!(error instanceof APIError)) throw new Error(`not an Anthropic APIError: ${String(error)}`);
  return {
    class: error.constructor.name,
    name: error.name,
    message: error.message,
    status: error.status,
    type: error.type,
    apiMessage: error.apiMessage,
    requestID: error.requestID,
    retryAfter: error.headers?.get('retry-after') ?? null,
    classified: classifyModelError(error),
  };
}

/** The SDK error class each model fault raises over the Messages API. */
export const ANTHROPIC_ERROR_CLASS: Readonly<Record<ModelFaultKind, string>> = {
  rate_limit: 'RateLimitError',
  server_error: 'InternalServerError',
  overloaded: 'OverloadedError',
  request_too_large: 'ContentTooLargeError',
  unknown_model: 'NotFoundError',
  unauthorized: 'AuthenticationError',
  connection_error: 'APIConnectionError',
  timeout: 'APIConnectionTimeoutError',
  // Mid-stream: the SDK's Stream raises the base class for an `event: error` frame.
  stream_cut: 'APIError',
};
