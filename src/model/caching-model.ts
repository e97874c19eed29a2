import { sdkError } from './faulty-model.js';
import type { Message, ModelClient, ModelRequest, RawMessageStreamEvent } from './model-client.js';
import { type PromptCache, withCacheUsage } from './prompt-cache.js';
import { invalidRequestResponse } from './simulated/request-validation.js';
import { messageStreamEvents } from './streaming/stream-events.js';
import { eventStream, failedStream } from './streaming/stream-of.js';

/** A model that answers at once: the simulated model, whose reply is a new object each time. */
export interface RespondingModel {
  readonly name: string;
  respond(request: ModelRequest): Message;
}

/**
 * A model behind the API's prompt cache: each reply's usage says what the cache read and
 * wrote for its request, as the Messages API reports it; a request with more breakpoints
 * than the API allows is refused as the API refuses it. The model's reply is the same
 * with or without the cache: it never sees it.
 */
export class CachingModel implements ModelClient {
  readonly name: string;
  readonly #inner: RespondingModel;
  readonly #cache: PromptCache;

  constructor(inner: RespondingModel, cache: PromptCache) {
    this.name = inner.name;
    this.#inner = inner;
    this.#cache = cache;
  }

  /** The reply, with no promise around it: what create and stream both hand on. */
  respond(request: ModelRequest): Message {
    // The reply first: its usage has the prompt counted, which the cache needs (counted once).
    const message = this.#inner.respond(request);
    const account = this.#cache.account(request, message.usage.input_tokens);
    if (typeof account === 'string') throw sdkError(invalidRequestResponse(account));
    return withCacheUsage(message, account);
  }

  /** Not an async function, as the simulated model's: the reply is known at once. */
  create(request: ModelRequest): Promise<Message> {
    try {
      return Promise.resolve(this.respond(request));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  stream(request: ModelRequest): AsyncIterable<RawMessageStreamEvent> {
    try {
      return eventStream(messageStreamEvents(this.respond(request)));
    } catch (error) {
      return failedStream(error);
    }
  }
}
