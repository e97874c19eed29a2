import { APIConnectionError } from '@anthropic-ai/sdk/core/error';
import type { Message, ModelClient, ModelRequest } from '../model/model-client.js';
import { StreamAccumulator } from '../model/streaming/stream-accumulator.js';
import { streamOf } from '../model/streaming/stream-of.js';
import { blockTokens } from '../model/token-estimate.js';

/**
 * Reply text as it streams: a `delta` of block `index`, or `reset` when the stream was
 * cut after some text was sent (the call is retried, or fails, and its text so far is void).
 */
export type TextStreamEvent =
  | { readonly kind: 'delta'; readonly index: number; readonly text: string }
  | { readonly kind: 'reset' };

export interface StreamingOptions {
  /** Receives the reply text as it streams, every model call of the run. @default none */
  readonly onText?: (event: TextStreamEvent) => void;
  /**
   * Start a concurrency-safe (read-only) tool call when its block ends instead of when the
   * reply ends, if every call before it in the reply started early too (see early-tool-start.ts).
   * @default true
   */
  readonly earlyToolStart?: boolean;
}

/**
 * When each block of a streamed reply was complete, as output tokens still to come after
 * its `content_block_stop` (by content index): the reply's final output count less the
 * estimate of the blocks written so far. A block whose stop never came has none.
 */
export interface StreamTiming {
  readonly tokensAfterBlock: ReadonlyArray<number | undefined>;
}

/**
 * One streamed model call read to the end: events accumulated into the reply (the same
 * Message `create` gives), text deltas passed on as they arrive, and the token position of
 * each block's end. A stream that closes before `message_stop` is a dropped connection
 * (the SDK's APIConnectionError); an error event or a failed request rejects as the
 * client raised it.
 */
export async function readStreamedReply(
  model: ModelClient,
  request: ModelRequest,
  options: { readonly signal?: AbortSignal },
  onText: ((event: TextStreamEvent) => void) | undefined,
): Promise<{ readonly message: Message; readonly timing: StreamTiming }> {
  const accumulator = new StreamAccumulator();
  const writtenAt: Array<number | undefined> = [];
  let written = 0;
  let texted = false;
  try {
    for await (const event of streamOf(model, request, options)) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta' && onText !== undefined) {
        texted = true;
        onText({ kind: 'delta', index: event.index, text: event.delta.text });
      }
      const completed = accumulator.push(event);
      if (completed !== null && event.type === 'content_block_stop') {
        written += blockTokens(completed);
        writtenAt[event.index] = written;
      }
    }
  } catch (error) {
    if (texted) onText?.({ kind: 'reset' });
    throw error;
  }
  const { message } = accumulator;
  if (message === null) {
    if (texted) onText?.({ kind: 'reset' });
    throw new APIConnectionError({ message: 'the stream ended before message_stop' });
  }
  const total = message.usage.output_tokens;
  return {
    message,
    timing: { tokensAfterBlock: writtenAt.map((at) => (at === undefined ? undefined : Math.max(0, total - at))) },
  };
}
