import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/** One turn of a text-only history. */
export interface TextTurn {
  readonly role: MessageParam['role'];
  readonly text: string;
}

/**
 * A history of plain text turns, or null when it holds any other block (tool calls and
 * results): the agents that rebuild the history in their own framework's message types
 * take only text.
 *
 * @example
 * textOnlyHistory([{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }])
 * // [{ role: 'user', text: 'hi' }, { role: 'assistant', text: 'hello' }]
 */
export function textOnlyHistory(history: readonly MessageParam[]): readonly TextTurn[] | null {
  const turns: TextTurn[] = [];
  for (const message of history) {
    if (typeof message.content === 'string') turns.push({ role: message.role, text: message.content });
    else if (message.content.every((block) => block.type === 'text'))
      turns.push({
        role: message.role,
        text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
      });
    else return null;
  }
  return turns;
}
