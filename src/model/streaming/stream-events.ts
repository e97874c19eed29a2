import type { ContentBlock, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { Message } from '../model-client.js';

export interface StreamEventOptions {
  /** Characters of text per `text_delta`. @default 24 */
  readonly textChunkChars?: number;
  /** Characters of a tool call's JSON arguments per `input_json_delta`. @default 16 */
  readonly jsonChunkChars?: number;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/**
 * A block as `content_block_start` announces it: empty text, empty arguments. Arguments
 * that are text (the OpenAI-compatible edge's, possibly malformed, replayed as a stream)
 * are announced whole instead: as JSON deltas they would come back parsed, or not at all.
 */
function startedBlock(block: ContentBlock): ContentBlock {
  if (block.type === 'text') return { ...block, text: '' };
  if (block.type === 'tool_use' && typeof block.input !== 'string') return { ...block, input: {} };
  return block;
}

/**
 * A complete reply as the Messages API streams it with `stream: true`: `message_start`
 * (the message with no content and the output count so far), per block
 * `content_block_start`, its deltas (`text_delta`; for a tool call `input_json_delta`
 * pieces of the arguments' JSON, the first one empty as the API sends it) and
 * `content_block_stop`, then `message_delta` (stop_reason and the final usage) and
 * `message_stop`. (The wire adds a `ping` after the first block starts: see
 * sse-frames.ts; the SDK drops it.) Accumulating the events gives back the message,
 * field for field.
 */
export function messageStreamEvents(
  message: Message,
  { textChunkChars = 24, jsonChunkChars = 16 }: StreamEventOptions = {},
): RawMessageStreamEvent[] {
  const { content, stop_reason, stop_sequence, stop_details, container, usage } = message;
  const events: RawMessageStreamEvent[] = [
    {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        usage: { ...usage, output_tokens: Math.min(1, usage.output_tokens) },
      },
    },
  ];
  content.forEach((block, index) => {
    events.push({ type: 'content_block_start', index, content_block: startedBlock(block) });
    if (block.type === 'text') {
      for (const text of chunks(block.text, textChunkChars))
        events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    } else if (block.type === 'tool_use' && typeof block.input !== 'string') {
      const json = JSON.stringify(block.input ?? {});
      for (const partial_json of ['', ...chunks(json, jsonChunkChars)])
        events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason, stop_sequence, stop_details, container },
    usage: {
      output_tokens: usage.output_tokens,
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      output_tokens_details: usage.output_tokens_details,
      server_tool_use: usage.server_tool_use,
    },
  });
  events.push({ type: 'message_stop' });
  return events;
}
