import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { AnthropicErrorBody } from '../../faults/model-faults.js';

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Server-sent event frames of a streamed reply, one string each as the API writes them:
 * `event: <type>` and `data: <json>`, with a `ping` after the first block starts. A
 * stream the server cannot finish ends with an `event: error` frame carrying an Anthropic
 * error body instead of `message_stop` (`error`), after the events it did send.
 */
export function sseFrames(events: readonly RawMessageStreamEvent[], error?: AnthropicErrorBody): string[] {
  const frames: string[] = [];
  let pinged = false;
  for (const event of events) {
    frames.push(frame(event.type, event));
    if (!pinged && event.type === 'content_block_start') {
      frames.push(frame('ping', { type: 'ping' }));
      pinged = true;
    }
  }
  if (error !== undefined) frames.push(frame('error', error));
  return frames;
}

/** The frames as a `text/event-stream` body, one chunk per frame, so a reader meets real chunk boundaries. */
export function sseBody(frames: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      const text = frames[next++];
      if (text === undefined) controller.close();
      else controller.enqueue(encoder.encode(text));
    },
  });
}

/**
 * The events a cut stream delivers before it stops: `message_start` and the first half
 * of the rest, so the cut falls mid-reply (never after `message_stop`), the same place
 * for the same reply. Shared by the HTTP endpoint and the in-process stream.
 */
export function eventsBeforeCut<T>(events: readonly T[]): T[] {
  return events.slice(0, 1 + Math.floor((events.length - 1) / 2));
}
