import type { ContentBlock, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { Message } from './model-client.js';

/*
 * A text block's `citations`, on the wire and in a transcript. The Messages API leaves the
 * field out of a text block that cites nothing, in a reply and in a stream's
 * `content_block_start`; the SDK's `TextBlock` type has it as `Array | null`, and clients
 * that validate replies (@ai-sdk/anthropic, LangChain) accept it only as an array or
 * absent. So the simulated endpoint writes what the API writes, and whatever reads a reply
 * into a transcript (the SDK client, the stream accumulator) puts `null` back: the
 * transcript, and so the next request's bytes and tokens, are the same whichever way the
 * reply came.
 */

function withoutNull(block: ContentBlock): ContentBlock {
  if (block.type !== 'text' || block.citations !== null) return block;
  const { citations: _, ...cited } = block;
  return cited as ContentBlock;
}

/** A reply as the API sends it: no `citations` on a text block that cites nothing. */
export function wireMessage(message: Message): Message {
  return { ...message, content: message.content.map(withoutNull) };
}

/** A stream event as the API sends it: a text block starts without `citations` when it cites nothing. */
export function wireStreamEvent(event: RawMessageStreamEvent): RawMessageStreamEvent {
  return event.type === 'content_block_start' ? { ...event, content_block: withoutNull(event.content_block) } : event;
}

/** A block read from the wire as the SDK's type has it: a text block's absent `citations` is `null`. */
export function withCitations(block: ContentBlock): ContentBlock {
  return block.type === 'text' && block.citations === undefined ? { ...block, citations: null } : block;
}
