import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ModelClient, ModelRequest } from '../model-client.js';
import { messageStreamEvents } from './stream-events.js';

/**
 * A streamed reply from any client: its own stream when it has one, else its whole reply
 * replayed as the events the API would have sent (a client that cannot stream, such as the
 * OpenAI-compatible edge or the scripted model, still gives the loop one shape to read).
 * Handed through, not wrapped: each layer of async generator costs every event a promise.
 */
export function streamOf(
  model: ModelClient,
  request: ModelRequest,
  options: { readonly signal?: AbortSignal } = {},
): AsyncIterable<RawMessageStreamEvent> {
  return model.stream !== undefined ? model.stream(request, options) : replayed(model, request, options);
}

async function* replayed(
  model: ModelClient,
  request: ModelRequest,
  options: { readonly signal?: AbortSignal },
): AsyncGenerator<RawMessageStreamEvent> {
  yield* messageStreamEvents(await model.create(request, options));
}

/** Events already in hand, as a stream: one settled promise per event, no generator. */
export function eventStream(events: readonly RawMessageStreamEvent[]): AsyncIterable<RawMessageStreamEvent> {
  return {
    [Symbol.asyncIterator]() {
      let next = 0;
      return {
        next: () =>
          Promise.resolve(
            next < events.length ? { done: false, value: events[next++]! } : { done: true, value: undefined },
          ),
      };
    },
  };
}

/** A stream that fails before its first event, as a request refused before streaming starts. */
export function failedStream(error: unknown): AsyncIterable<RawMessageStreamEvent> {
  return {
    [Symbol.asyncIterator]() {
      return { next: () => Promise.reject(error) };
    },
  };
}
