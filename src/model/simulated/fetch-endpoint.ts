import type { ModelRequest } from '../model-client.js';
import type { SimulatedModel } from './simulated-model.js';

function errorResponse(status: number, type: string, message: string): Response {
  return new Response(JSON.stringify({ type: 'error', error: { type, message } }), {
    status,
    headers: { 'content-type': 'application/json', 'request-id': 'req_sim_error' },
  });
}

/**
 * The simulated model as the Messages HTTP endpoint, for `new Anthropic({ fetch, maxRetries: 0 })`: the
 * SDK builds the request, and parses the response or raises its own error classes.
 */
export function simulatedFetch(model: SimulatedModel): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!new URL(url).pathname.endsWith('/v1/messages') || init?.method !== 'POST') {
      return errorResponse(404, 'not_found_error', `the simulated endpoint serves POST /v1/messages, not ${init?.method ?? 'GET'} ${url}`);
    }
    let request: ModelRequest;
    try {
      request = JSON.parse(String(init.body)) as ModelRequest;
    } catch {
      return errorResponse(400, 'invalid_request_error', 'request body is not valid JSON');
    }
    if (!Array.isArray(request.messages) || typeof request.model !== 'string') {
      return errorResponse(400, 'invalid_request_error', 'model and messages are required');
    }
    const message = model.respond(request);
    return new Response(JSON.stringify(message), {
      status: 200,
      headers: { 'content-type': 'application/json', 'request-id': `req_${message.id}` },
    });
  };
}
