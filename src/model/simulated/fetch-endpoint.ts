import type { ModelFaultResponse, ModelFaultSource } from '../../faults/model-faults.js';
import type { ModelRequest } from '../model-client.js';
import { contextLimitResponse, type ContextWindowOf } from './context-limit.js';
import { invalidRequestResponse, requestProblem } from './request-validation.js';
import type { SimulatedModel } from './simulated-model.js';
import { MessageThreads } from './message-threads.js';

function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body), { status, headers });
}

function errorResponse(status: number, type: string, message: string, details?: Readonly<Record<string, unknown>>): Response {
  return jsonResponse(status, { type: 'error', error: { type, message, ...(details === undefined ? {} : { details }) } }, { 'content-type': 'application/json', 'request-id': 'req_sim_error' });
}

/**
 * An error as the wire shows it: an HTTP error response, or a fetch that rejects the way
 * undici's does (`TypeError: fetch failed` with the cause), so the SDK raises its own
 * APIConnectionError or, for a timeout, APIConnectionTimeoutError.
 */
function wireResponse(response: ModelFaultResponse): Response {
  if (response.kind === 'http') return jsonResponse(response.status, response.body, response.headers);
  throw new TypeError('fetch failed', { cause: new Error(response.message) });
}

/**
 * The simulated model as the Messages HTTP endpoint, for `new Anthropic({ fetch, maxRetries: 0 })`: the
 * SDK builds the request, and parses the response or raises its own error classes. Before
 * the model sees a request, the fault source may fail it (HTTP errors with Anthropic error
 * bodies, dropped connections, timeouts), and the endpoint refuses a request over the
 * model's context window (413 `request_too_large`) and requests the real API would refuse
 * (400 `invalid_request_error`). The model never learns of either. A request on the
 * message-threads beta (the SDK's tool runner sends `thread`) is read as the whole
 * conversation the thread holds, so it is answered exactly as the same request unthreaded.
 */
export function simulatedFetch(model: SimulatedModel, faults?: ModelFaultSource, contextWindow?: ContextWindowOf): typeof fetch {
  const threads = new MessageThreads();
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
    const thread = threads.read(request as unknown as Parameters<MessageThreads['read']>[0]);
    if (thread.kind === 'error') return errorResponse(thread.status, 'not_found_error', thread.message, { error_code: thread.errorCode });
    if (thread.kind === 'threaded') request = thread.body as unknown as ModelRequest;
    const fault = faults?.next(request) ?? null;
    if (fault !== null) return wireResponse(fault.response);
    const tooLarge = contextWindow === undefined ? null : contextLimitResponse(request, contextWindow(request.model));
    if (tooLarge !== null) return wireResponse(tooLarge);
    const problem = requestProblem(request);
    if (problem !== null) return wireResponse(invalidRequestResponse(problem));
    const message = model.respond(request);
    if (thread.kind === 'threaded') threads.hold(request, message);
    return jsonResponse(200, message, { 'content-type': 'application/json', 'request-id': `req_${message.id}` });
  };
}
