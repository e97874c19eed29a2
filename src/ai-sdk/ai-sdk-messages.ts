import type { LanguageModelV3GenerateResult } from './ai-sdk-types.js';
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelMessage, ToolResultPart } from 'ai';
import type { ReadReply } from '../middleware/guard-session.js';

/**
 * The AI SDK's opening messages in the Messages shape the guards read: text, tool calls
 * and tool results; system messages are left out (the request carries the system prompt),
 * and parts a guard never reads (images, files, reasoning) too.
 */
export function toAnthropicMessages(messages: readonly ModelMessage[]): MessageParam[] {
  const converted: MessageParam[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (typeof message.content === 'string') {
      converted.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content: message.content });
      continue;
    }
    const blocks: ContentBlockParam[] = [];
    for (const part of message.content) {
      if (part.type === 'text') blocks.push({ type: 'text', text: part.text });
      else if (part.type === 'tool-call')
        blocks.push({ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.input });
      else if (part.type === 'tool-result') blocks.push(toolResultBlock(part));
    }
    converted.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content: blocks });
  }
  return converted;
}

function toolResultBlock(part: ToolResultPart): ToolResultBlockParam {
  const { output } = part;
  const isError = output.type === 'error-text' || output.type === 'error-json';
  const content =
    output.type === 'text' || output.type === 'error-text'
      ? output.value
      : output.type === 'json' || output.type === 'error-json'
        ? JSON.stringify(output.value)
        : output.type === 'content'
          ? output.value.map((item) => (item.type === 'text' ? item.text : '')).join('')
          : (output.reason ?? 'Tool execution denied.');
  return isError
    ? { type: 'tool_result', tool_use_id: part.toolCallId, content, is_error: true }
    : { type: 'tool_result', tool_use_id: part.toolCallId, content };
}

const STOP_REASONS = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
  error: null,
  other: null,
} as const;

/** A language model's reply as guards read it: text and tool calls, why it stopped, its usage. */
export function readGenerateResult(result: LanguageModelV3GenerateResult): ReadReply {
  const content: ContentBlockParam[] = [];
  for (const part of result.content) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'tool-call')
      content.push({ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: parseInput(part.input) });
  }
  return {
    content,
    stop_reason: STOP_REASONS[result.finishReason.unified],
    usage: {
      input_tokens: result.usage.inputTokens.total ?? 0,
      output_tokens: result.usage.outputTokens.total ?? 0,
    } as ReadReply['usage'] & object,
  };
}

/** Tool input arrives JSON-encoded; one that does not parse is kept as the text it was. */
function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
