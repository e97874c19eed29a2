import type { ModelFaultResponse, ModelFaultSource } from '../../faults/model-faults.js';
import type { ModelRequest } from '../model-client.js';
import { contextLimitResponse, type ContextWindowOf } from './context-limit.js';
import { invalidRequestResponse, requestProblem } from './request-validation.js';
import type { SimulatedModel } from './simulated-model.js';
import { type PromptCache, withCacheUsage } from '../prompt-cache.js';
import { MessageThreads } from './message-threads.js';
import { eventsBeforeCut, sseBody, sseFrames } from '../streaming/sse-frames.js';
import { messageStreamEvents } from '../streaming/stream-events.js';
import { wireMessage, wireStreamEvent } from '../text-citations.js';

function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body), { status, headers });
}

function errorResponse(
  status: number,
  type: string,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): Response {
  return jsonResponse(
    status,
    { type: 'error', error: { type, message, ...(details === undefined ? {} : { details }) } },
    { 'content-type': 'application/json', 'request-id': 'req_sim_error' },
  );
}

/**
 * An error as the wire shows it: an HTTP error response, or a fetch that rejects the way
 * undici's does (`TypeError: fetch failed` with the cause), so the SDK raises its own
 * APIConnectionError or, for a timeout, APIConnectionTimeoutError.
 */
function wireResponse(response: ModelFaultResponse): Response {
  if (response.kind === 'http') return jsonResponse(response.status, response.body, response.headers);
  // Only a streamed request meets a cut (the injector lets the others through); answered in simulatedFetch.
  if (response.kind === 'stream_cut') throw new Error('a stream cut needs a streamed reply');
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
 *
 * A request with `stream: true` gets the reply as server-sent events (`text/event-stream`,
 * see sse-frames.ts), which the SDK's own stream parser reads; errors before the stream
 * starts are the same HTTP errors, and a `stream_cut` fault sends the first half of the
 * events and then an `event: error` frame. The model sees the request without `stream`:
 * its reply cannot depend on how it is delivered. Replies are written as the API writes them
 * (see text-citations.ts). With a `cache`, replies report what the prompt cache read and
 * wrote (see prompt-cache.ts).
 */
export function simulatedFetch(
  model: SimulatedModel,
  faults?: ModelFaultSource,
  contextWindow?: ContextWindowOf,
  cache?: PromptCache,
): typeof fetch {
  const threads = new MessageThreads();
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!new URL(url).pathname.endsWith('/v1/messages') || init?.method !== 'POST') {
      return errorResponse(
        404,
        'not_found_error',
        `the simulated endpoint serves POST /v1/messages, not ${init?.method ?? 'GET'} ${url}`,
      );
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
    const streamed = (request as { stream?: unknown }).stream === true;
    if (streamed) delete (request as { stream?: unknown }).stream;
    const thread = threads.read(request as unknown as Parameters<MessageThreads['read']>[0]);
    if (thread.kind === 'error')
      return errorResponse(thread.status, 'not_found_error', thread.message, { error_code: thread.errorCode });
    if (thread.kind === 'threaded') request = thread.body as unknown as ModelRequest;
    // The array is this endpoint's own: parsed above, or a thread's fresh copy.
    model.adoptPrefix(request.messages);
    const fault = faults?.next({ model: request.model, messages: request.messages, stream: streamed }) ?? null;
    if (fault !== null && fault.response.kind !== 'stream_cut') return wireResponse(fault.response);
    const tooLarge = contextWindow === undefined ? null : contextLimitResponse(request, contextWindow(request.model));
    if (tooLarge !== null) return wireResponse(tooLarge);
    const problem = requestProblem(request);
    if (problem !== null) return wireResponse(invalidRequestResponse(problem));
    const answer = model.respond(request);
    // The reply's usage has the prompt counted, which the cache needs: counted once.
    const account = cache?.account(request, answer.usage.input_tokens) ?? null;
    if (typeof account === 'string') return wireResponse(invalidRequestResponse(account));
    const message = withCacheUsage(answer, account);
    // A cut reply never reached the client: the thread does not hold it.
    if (thread.kind === 'threaded' && fault?.response.kind !== 'stream_cut') threads.hold(request, message);
    if (streamed) {
      const events = messageStreamEvents(message).map(wireStreamEvent);
      const frames =
        fault?.response.kind === 'stream_cut'
          ? sseFrames(eventsBeforeCut(events), fault.response.body)
          : sseFrames(events);
      return new Response(sseBody(frames), {
        status: 200,
        headers: {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          'request-id': `req_${message.id}`,
        },
      });
    }
    return jsonResponse(200, wireMessage(message), {
      'content-type': 'application/json',
      'request-id': `req_${message.id}`,
    });
  };
}
