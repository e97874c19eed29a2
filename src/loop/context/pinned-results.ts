import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { canonicalJson } from '../../scenarios/canonical-json.js';

/** A tool result kept verbatim through a compaction. */
export interface PinnedResult {
  readonly name: string;
  readonly input: unknown;
  readonly text: string;
}

function resultText(block: ToolResultBlockParam): string {
  const { content } = block;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * The latest successful result of each distinct tool in `messages`, oldest first. Errors
 * are skipped, so a tool whose last call failed keeps its last good result; a call that
 * was answered without running (a reflection) is an error only if marked so, and its
 * text is then skipped too.
 */
export function pinnedResults(messages: readonly MessageParam[]): PinnedResult[] {
  const calls = new Map<string, { readonly name: string; readonly input: unknown }>();
  const latest = new Map<string, { readonly at: number; readonly pin: PinnedResult }>();
  let at = 0;
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') calls.set(block.id, { name: block.name, input: block.input });
      if (block.type !== 'tool_result' || block.is_error === true) continue;
      const call = calls.get(block.tool_use_id);
      if (call === undefined) continue;
      latest.set(call.name, { at: at++, pin: { name: call.name, input: call.input, text: resultText(block) } });
    }
  }
  return [...latest.values()].sort((a, b) => a.at - b.at).map((entry) => entry.pin);
}

/**
 * Pinned results as plain text (never as tool_result blocks, which would be orphans
 * without their tool_use): a heading line naming the tool and its arguments, the result
 * verbatim, and a closing line.
 */
export function formatPinned(pins: readonly PinnedResult[]): string {
  if (pins.length === 0) return '';
  const parts = pins.map(
    (pin) => `Result of ${pin.name} ${canonicalJson(pin.input)} (kept verbatim):\n${pin.text}\n(end of result)`,
  );
  return `The latest successful result of each tool, kept verbatim:\n${parts.join('\n')}`;
}
