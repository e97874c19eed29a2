import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk/core/error';
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared';
import type { ModelFaultResponse, ModelFaultSource } from '../faults/model-faults.js';
import type { Message, ModelClient, ModelRequest, RawMessageStreamEvent } from './model-client.js';
import { eventsBeforeCut } from './streaming/sse-frames.js';
import { failedStream, streamOf } from './streaming/stream-of.js';
import { contextLimitResponse, type ContextWindowOf } from './simulated/context-limit.js';
import { invalidRequestResponse, requestProblem } from './simulated/request-validation.js';

/**
 * The error the Anthropic SDK raises for a response, built the way the SDK builds it
 * (`APIError.generate` for HTTP errors; the connection errors for a fetch that rejects),
 * so a fault is the same error object in-process and through the real client.
 */
export function sdkError(response: ModelFaultResponse): APIError {
  switch (response.kind) {
    case 'http':
      return APIError.generate(response.status, response.body, undefined, new Headers(response.headers));
    case 'timeout':
      return new APIConnectionTimeoutError();
    case 'connection_error':
      return new APIConnectionError({ cause: new TypeError('fetch failed', { cause: new Error(response.message) }) });
    case 'stream_cut':
      return streamError(response.body, new Headers(response.headers));
  }
}

/**
 * The error the SDK raises for an `event: error` frame mid-stream (its Stream's own
 * construction: an APIError with no status, the body's error type as `type`).
 */
export function streamError(body: { readonly error: { readonly type: string } }, headers: Headers): APIError {
  return new APIError(undefined, body, undefined, headers, body.error.type as ErrorType);
}

export interface FaultyModelOptions {
  /** Refuse requests the real API would refuse (400 `invalid_request_error`). @default true */
  readonly validate?: boolean;
  /** Refuse a request larger than the model's context window (413 `request_too_large`); undefined: no limit. @default undefined */
  readonly contextWindow?: ContextWindowOf;
}

/**
 * A ModelClient in front of another, doing in-process what the simulated HTTP endpoint
 * does on the wire: a fault source may fail a request with the SDK's own error classes
 * (RateLimitError, InternalServerError, OverloadedError, NotFoundError,
 * AuthenticationError, APIConnectionError, APIConnectionTimeoutError), a request over the
 * model's context window gets a 413 ContentTooLargeError, and a request the API would
 * refuse gets its BadRequestError. The inner model only sees requests that pass.
 *
 * @example
 * const model = new FaultyModel(new ScriptedModel(turns), scriptedModelFaults(['overloaded', null]));
 */
export class FaultyModel implements ModelClient {
  readonly name: string;
  readonly #inner: ModelClient;
  readonly #faults: ModelFaultSource;
  readonly #validate: boolean;
  readonly #contextWindow: ContextWindowOf | undefined;

  constructor(
    inner: ModelClient,
    faults: ModelFaultSource,
    { validate = true, contextWindow }: FaultyModelOptions = {},
  ) {
    this.name = inner.name;
    this.#inner = inner;
    this.#faults = faults;
    this.#validate = validate;
    this.#contextWindow = contextWindow;
  }

  /**
   * Not an async function: the answer is the refusal or the inner model's own promise,
   * with no promise wrapped around it (a layer of async that only passes a promise on
   * costs a few microtask hops and allocations on every model call). Whatever goes
   * wrong still arrives as a rejection, as from any client.
   */
  create(request: ModelRequest, options: { readonly signal?: AbortSignal } = {}): Promise<Message> {
    try {
      const fault = this.#faults.next(request);
      const refusal = fault !== null ? fault.response : this.#refusedUnread(request);
      return refusal === null ? this.#inner.create(request, options) : Promise.reject(sdkError(refusal));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The refusals that do not depend on reading the reply: size before shape, as at the
   * API, whose gateway refuses an oversized body unread.
   */
  #refusedUnread(request: ModelRequest): ModelFaultResponse | null {
    const tooLarge =
      this.#contextWindow === undefined ? null : contextLimitResponse(request, this.#contextWindow(request.model));
    if (tooLarge !== null) return tooLarge;
    const problem = this.#validate ? requestProblem(request) : null;
    return problem === null ? null : invalidRequestResponse(problem);
  }

  /**
   * The streamed call: the same checks, and a `stream_cut` fault delivers the first half
   * of the inner model's events, then throws what the SDK throws for an `event: error` frame.
   */
  stream(request: ModelRequest, options: { readonly signal?: AbortSignal } = {}): AsyncIterable<RawMessageStreamEvent> {
    const fault = this.#faults.next({ model: request.model, messages: request.messages, stream: true });
    if (fault !== null && fault.response.kind !== 'stream_cut') return failedStream(sdkError(fault.response));
    const refusal = this.#refusedUnread(request);
    if (refusal !== null) return failedStream(sdkError(refusal));
    const inner = streamOf(this.#inner, request, options);
    return fault === null ? inner : cutStream(inner, sdkError(fault.response));
  }
}

/** The first half of a stream's events, then the error its `event: error` frame raises. */
async function* cutStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  error: APIError,
): AsyncGenerator<RawMessageStreamEvent> {
  const all: RawMessageStreamEvent[] = [];
  for await (const event of events) all.push(event);
  yield* eventsBeforeCut(all);
  throw error;
}
