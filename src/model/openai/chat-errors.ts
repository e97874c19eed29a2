import {
  APIConnectionError as AnthropicConnectionError,
  APIConnectionTimeoutError as AnthropicConnectionTimeoutError,
  APIError as AnthropicAPIError,
  APIUserAbortError as AnthropicUserAbortError,
} from '@anthropic-ai/sdk/core/error';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai/core/error';
import type { ModelFault } from '../../faults/model-faults.js';

/** The body of an OpenAI API error response. */
export interface ChatErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

/** An error as the Chat Completions wire shows it: an HTTP error, or a fetch that rejects. */
export type ChatErrorResponse =
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly body: ChatErrorBody;
      readonly headers: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'connection_error' | 'timeout'; readonly message: string };

function http(
  status: number,
  message: string,
  type: string,
  code: string | null,
  extra: Readonly<Record<string, string>> = {},
  param: string | null = null,
): ChatErrorResponse {
  return {
    kind: 'http',
    status,
    body: { error: { message, type, param, code } },
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_sim_error', ...extra },
  };
}

/**
 * A model fault as an OpenAI-compatible server answers it: statuses, error types and
 * codes as OpenAI sends them. There is no 529 there (an overloaded engine is a 503) and
 * no 413 (a too-long prompt is a 400 `context_length_exceeded`).
 */
export function chatFaultResponse(fault: ModelFault, model: string): ChatErrorResponse {
  const { response } = fault;
  // The injector sees the request unstreamed (the edge streams only the answer it was given) and lets it through a cut.
  if (response.kind === 'stream_cut')
    throw new Error('a stream cut reached the OpenAI-compatible edge, which streams without cuts');
  if (response.kind !== 'http') return response;
  const retryAfter = response.headers['retry-after'];
  switch (fault.kind) {
    case 'rate_limit':
      return http(
        429,
        `Rate limit reached for requests on ${model}. Please try again in ${retryAfter ?? '1'}s.`,
        'requests',
        'rate_limit_exceeded',
        retryAfter === undefined ? {} : { 'retry-after': retryAfter },
      );
    case 'server_error':
      return http(
        500,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
      );
    case 'overloaded':
      return http(503, 'The engine is currently overloaded, please try again later.', 'server_error', null);
    case 'request_too_large':
      return http(
        400,
        "This model's maximum context length is exceeded. Please reduce the length of the messages.",
        'invalid_request_error',
        'context_length_exceeded',
        {},
        'messages',
      );
    case 'unknown_model':
      return http(
        404,
        `The model \`${model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    case 'unauthorized':
      return http(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    default:
      return http(response.status, response.body.error.message, 'server_error', null);
  }
}

/** A request the API refuses, in OpenAI's words. */
export function invalidChatRequest(problem: string): ChatErrorResponse {
  return http(400, problem, 'invalid_request_error', null);
}

const ANTHROPIC_TYPE: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
};

/**
 * An OpenAI HTTP error as the Anthropic SDK's own error class, so the loop's recovery
 * (which reads Anthropic classes) treats both edges alike. A `context_length_exceeded`
 * 400 is the 413 it means; the request id moves to the header the Anthropic SDK reads.
 */
export function anthropicErrorOf(
  status: number,
  error: ChatErrorBody['error'] | undefined,
  headers: Headers,
): AnthropicAPIError {
  const tooLong = status === 400 && error?.code === 'context_length_exceeded';
  const mapped = tooLong ? 413 : status;
  const translated = new Headers(headers);
  const requestId = headers.get('x-request-id');
  if (requestId !== null) translated.set('request-id', requestId);
  const body = {
    type: 'error',
    error: {
      type: ANTHROPIC_TYPE[mapped] ?? (mapped >= 500 ? 'api_error' : 'invalid_request_error'),
      message: error?.message ?? `HTTP ${status}`,
    },
  };
  return AnthropicAPIError.generate(mapped, body, undefined, translated);
}

/** Any error the `openai` client raised, mapped at the edge to its Anthropic SDK counterpart. */
export function toAnthropicError(error: unknown): unknown {
  if (error instanceof APIUserAbortError) return new AnthropicUserAbortError({ message: error.message });
  if (error instanceof APIConnectionTimeoutError)
    return new AnthropicConnectionTimeoutError({ message: error.message });
  if (error instanceof APIConnectionError)
    return new AnthropicConnectionError({
      message: error.message,
      cause: error.cause instanceof Error ? error.cause : undefined,
    });
  if (error instanceof APIError && typeof error.status === 'number' && error.headers !== undefined) {
    return anthropicErrorOf(error.status, error.error as ChatErrorBody['error'] | undefined, error.headers);
  }
  return error;
}

/**
 * In-process, the error the edge client ends up raising for a wire error: what the
 * `openai` client raises for that response (a rejected fetch is a connection error, or a
 * timeout when its message says so), mapped by `toAnthropicError`.
 */
export function chatWireError(response: ChatErrorResponse): AnthropicAPIError {
  switch (response.kind) {
    case 'http':
      return anthropicErrorOf(response.status, response.body.error, new Headers(response.headers));
    case 'timeout':
      return new AnthropicConnectionTimeoutError({ message: 'Request timed out.' });
    case 'connection_error':
      return new AnthropicConnectionError({
        message: 'Connection error.',
        cause: new TypeError('fetch failed', { cause: new Error(response.message) }),
      });
  }
}
