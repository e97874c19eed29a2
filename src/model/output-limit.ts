import type { ContentBlock, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { jsonrepair } from 'jsonrepair';
import type { Message } from './model-client.js';
import { blockTokens } from './token-estimate.js';

const CHARS_PER_TOKEN = 4;

/** A cut-off tool call's arguments: what the API had parsed of the partial JSON when output stopped. */
function partialInput(input: unknown, chars: number): Record<string, unknown> {
  const prefix = JSON.stringify(input ?? {}).slice(0, Math.max(1, chars));
  try {
    const value: unknown = JSON.parse(jsonrepair(prefix));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * A reply as the API returns it when it is longer than `maxTokens`: output stops at the
 * limit, the block being written is cut (text mid-sentence, a tool call with only the
 * arguments written so far), later blocks are never written, and `stop_reason` is
 * `max_tokens`. A reply within the limit comes back unchanged. Token counts are the
 * shared estimator's, so the cut falls where usage says it does.
 */
export function cutAtOutputLimit(message: Message, maxTokens: number): Message {
  if (message.usage.output_tokens <= maxTokens) return message;
  const content: ContentBlock[] = [];
  let left = maxTokens;
  for (const block of message.content) {
    const tokens = blockTokens(block);
    if (tokens <= left) {
      content.push(block);
      left -= tokens;
      continue;
    }
    const chars = left * CHARS_PER_TOKEN;
    if (block.type === 'text') content.push({ ...block, text: block.text.slice(0, chars) });
    else if (block.type === 'tool_use')
      content.push({ ...block, input: partialInput(block.input, chars - block.name.length) });
    break;
  }
  return { ...message, content, stop_reason: 'max_tokens', usage: { ...message.usage, output_tokens: maxTokens } };
}

/**
 * The tool call the output limit cut off, if any: the last block of a `max_tokens`
 * reply when it is a tool call (a call that ended exactly at the limit counts too; its
 * arguments cannot be known to be complete).
 */
export function cutOffToolCall(message: Message): ToolUseBlock | null {
  if (message.stop_reason !== 'max_tokens') return null;
  const last = message.content.at(-1);
  return last?.type === 'tool_use' ? last : null;
}
