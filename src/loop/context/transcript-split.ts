import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Where to cut a transcript so that at least the last `keepLast` messages stay verbatim:
 * the index of the first kept message, always an assistant message, so no tool_result is
 * separated from the tool_use it answers (a turn's calls and their results sit in one
 * assistant message and the user message after it). Null when nothing older could be
 * replaced: the older part must hold at least one assistant turn.
 *
 * @example
 * splitIndex(messages, 10) // 13 for 24 alternating messages: 11 kept, 13 older
 */
export function splitIndex(messages: readonly MessageParam[], keepLast: number): number | null {
  for (let i = Math.min(messages.length - keepLast, messages.length - 1); i >= 1; i--) {
    if (messages[i]?.role !== 'assistant') continue;
    for (let j = 0; j < i; j++) if (messages[j]?.role === 'assistant') return i;
    return null;
  }
  return null;
}
