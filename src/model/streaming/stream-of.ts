import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ModelClient, ModelRequest } from '../model-client.js';
import { messageStreamEvents } from './stream-events.js';

/**
 * A streamed reply from any client: its own stream when it has one, else its whole reply
 * replayed as the events the API would have sent (a client that cannot stream, such as the
 * OpenAI-compatible edge or the scripted model, still gives the loop one shape to read).
 */
export async function* streamOf(model: ModelClient, request: ModelRequest, options: { readonly signal?: AbortSignal } = {}): AsyncGenerator<RawMessageStreamEvent> {
  if (model.stream !== undefined) {
    yield* model.stream(request, options);
    return;
  }
  yield* messageStreamEvents(await model.create(request, options));
}
