import { invalidChatRequest, type ChatErrorResponse } from './chat-errors.js';
import type { ChatRequest } from './chat-request.js';
import { chatCompletionChunks, chatSseFrames } from './chat-stream.js';
import { sseBody } from '../streaming/sse-frames.js';
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
 * parses the response or raises its own errors, exactly as against a real server. A
 * request with `stream: true` gets the completion as server-sent chunks (chat-stream.ts);
 * the model sees the request without `stream` and `stream_options`, so its reply cannot
 * depend on how it is delivered, and errors are the same HTTP errors before any chunk.
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
    const { stream, stream_options, ...unstreamed } = chat as Omit<ChatRequest, 'stream' | 'stream_options'> & {
      stream?: unknown;
      stream_options?: { include_usage?: boolean } | null;
    };
    const answer = answerChat(unstreamed, options);
    if (answer.kind === 'error') return wireResponse(answer.response);
    if (stream === true) {
      const chunks = chatCompletionChunks(answer.completion, stream_options?.include_usage === true);
      return new Response(sseBody(chatSseFrames(chunks)), {
        status: 200,
        headers: {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          'x-request-id': `req_${answer.completion.id}`,
        },
      });
    }
    return jsonResponse(200, answer.completion, {
      'content-type': 'application/json',
      'x-request-id': `req_${answer.completion.id}`,
    });
  };
}
