import { invalidChatRequest, type ChatErrorResponse } from './chat-errors.js';
import type { ChatRequest } from './chat-request.js';
import { answerChat, type SimulatedChatOptions } from './simulated-chat.js';

function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body), { status, headers });
}

/** An error on the wire: an HTTP error with an OpenAI error body, or a fetch that rejects the way undici's does. */
function wireResponse(response: ChatErrorResponse): Response {
  if (response.kind === 'http') return jsonResponse(response.status, response.body, response.headers);
  throw new TypeError('fetch failed', { cause: new Error(response.message) });
}

/**
 * The simulated model as an OpenAI-compatible `POST /v1/chat/completions` endpoint, for
 * `new OpenAI({ fetch, maxRetries: 0 })`: the `openai` client builds the request and
 * parses the response or raises its own errors, exactly as against a real server.
 */
export function simulatedChatFetch(options: SimulatedChatOptions): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!new URL(url).pathname.endsWith('/chat/completions') || init?.method !== 'POST') {
      return jsonResponse(
        404,
        {
          error: {
            message: `Invalid URL (${init?.method ?? 'GET'} ${new URL(url).pathname})`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        },
        { 'content-type': 'application/json' },
      );
    }
    let chat: ChatRequest;
    try {
      chat = JSON.parse(String(init.body)) as ChatRequest;
    } catch {
      return wireResponse(invalidChatRequest('We could not parse the JSON body of your request.'));
    }
    if (!Array.isArray(chat.messages) || typeof chat.model !== 'string')
      return wireResponse(invalidChatRequest("'model' and 'messages' are required"));
    const answer = answerChat(chat, options);
    if (answer.kind === 'error') return wireResponse(answer.response);
    return jsonResponse(200, answer.completion, {
      'content-type': 'application/json',
      'x-request-id': `req_${answer.completion.id}`,
    });
  };
}
