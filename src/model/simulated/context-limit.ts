import type { ModelFaultResponse } from '../../faults/model-faults.js';
import type { ModelRequest } from '../model-client.js';
import { requestTokens } from '../token-estimate.js';

/** The context window the endpoint enforces for a model id. */
export type ContextWindowOf = (model: string) => number;

/**
 * The API's answer to a request that does not fit the model's context window: HTTP 413
 * `request_too_large` (the SDK's ContentTooLargeError), with the sizes in its message.
 * The size is the shared estimator's, the same figure the loop and `usage` use, so a
 * guard that keeps its estimate under the window is never refused. Null when it fits.
 *
 * @example
 * contextLimitResponse(request, 24_000) // null, or { kind: 'http', status: 413, ... }
 */
export function contextLimitResponse(request: ModelRequest, contextWindow: number): ModelFaultResponse | null {
  const tokens = requestTokens(request);
  if (tokens <= contextWindow) return null;
  return {
    kind: 'http',
    status: 413,
    body: {
      type: 'error',
      error: {
        type: 'request_too_large',
        message: `prompt is too long: ${tokens} tokens > ${contextWindow} maximum for ${request.model}`,
      },
    },
    headers: { 'content-type': 'application/json', 'request-id': 'req_sim_too_large' },
  };
}
