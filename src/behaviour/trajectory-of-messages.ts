import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { contentText } from '../model/content-text.js';
import type { ToolCall, ToolResult, Trajectory, Turn } from './trajectory.js';

/**
 * The trajectory of an Anthropic Messages transcript (a RunResult's `messages`): each
 * assistant message with tool_use blocks is a call turn, its calls in block order, each
 * answered by the tool_result with its id in the next user message (text blocks joined,
 * `is_error` kept; null when none answers it); an assistant message with text and no
 * calls is a text turn. User text (the task, a guard's notice) is not a turn: the
 * statistics are about what the agent did.
 *
 * @example
 * trajectoryOfMessages('fetch-transform-write#1', result.messages);
 */
export function trajectoryOfMessages(id: string, messages: readonly MessageParam[]): Trajectory {
  const turns: Turn[] = [];
  for (let m = 0; m < messages.length; m++) {
    const message = messages[m]!;
    if (message.role !== 'assistant') continue;
    const { content } = message;
    const uses = typeof content === 'string' ? [] : content.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) {
      turns.push({ text: contentText(content as Parameters<typeof contentText>[0]) });
      continue;
    }
    const answers = resultsIn(messages[m + 1]);
    turns.push({
      calls: uses.map(
        (use): ToolCall => ({
          name: use.name,
          input: asArguments(use.input),
          result: answers.get(use.id) ?? null,
        }),
      ),
    });
  }
  return { id, turns };
}

/** The tool results of a user message, by the id of the call each answers. */
function resultsIn(message: MessageParam | undefined): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  if (message === undefined || message.role !== 'user' || typeof message.content === 'string') return results;
  for (const block of message.content) {
    if (block.type !== 'tool_result') continue;
    const result = block as ToolResultBlockParam;
    const text = result.content === undefined ? '' : contentText(result.content as Parameters<typeof contentText>[0]);
    results.set(result.tool_use_id, result.is_error === true ? { text, is_error: true } : { text });
  }
  return results;
}

/**
 * A call's arguments as an object: a model may send anything, and a non-object is kept
 * under `value` so that two such calls still compare by what was sent.
 */
export function asArguments(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { value: input };
}
