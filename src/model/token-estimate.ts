import type { ContentBlockParam, MessageParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from './model-client.js';

/**
 * The token estimator shared by the simulated model (for `usage`) and the loop, so
 * token figures stay comparable across arms.
 *
 * Estimate: one token per 4 characters of text or JSON (rounded up per block), plus a
 * fixed framing cost per block (tool_use 8, tool_result 6, other 2), per message (4)
 * and per tool definition (8). It is a proxy, not a tokenizer: cheap, deterministic,
 * and within the usual 10-20% of cl100k counts for English and JSON.
 */
const CHARS_PER_TOKEN = 4;
const MESSAGE_OVERHEAD = 4;
const TOOL_OVERHEAD = 8;

const perMessage = new WeakMap<object, number>();
const perTool = new WeakMap<object, number>();

function textTokens(length: number): number {
  return Math.ceil(length / CHARS_PER_TOKEN);
}

function resultText(block: ToolResultBlockParam): string {
  const { content } = block;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

export function blockTokens(block: ContentBlockParam | { type: string }): number {
  switch (block.type) {
    case 'text':
      return textTokens((block as { text: string }).text.length) + 2;
    case 'tool_use': {
      const use = block as { name: string; input: unknown };
      return textTokens(use.name.length + JSON.stringify(use.input ?? {}).length) + 8;
    }
    case 'tool_result':
      return textTokens(resultText(block as ToolResultBlockParam).length) + 6;
    default:
      return textTokens(JSON.stringify(block).length) + 2;
  }
}

/** Tokens of one message; cached per message object, since messages never change. */
export function messageTokens(message: MessageParam | { content: string | readonly { type: string }[] }): number {
  const cached = perMessage.get(message);
  if (cached !== undefined) return cached;
  let tokens = MESSAGE_OVERHEAD;
  if (typeof message.content === 'string') tokens += textTokens(message.content.length);
  else for (const block of message.content) tokens += blockTokens(block as ContentBlockParam);
  perMessage.set(message, tokens);
  return tokens;
}

function toolTokens(tool: Tool | object): number {
  const cached = perTool.get(tool);
  if (cached !== undefined) return cached;
  const tokens = textTokens(JSON.stringify(tool).length) + TOOL_OVERHEAD;
  perTool.set(tool, tokens);
  return tokens;
}

/** Running totals of one messages array: the message objects counted so far and the sum after each. */
interface Prefix {
  readonly refs: MessageParam[];
  readonly sums: number[];
}

const prefixes = new WeakMap<readonly MessageParam[], Prefix>();
const toolLists = new WeakMap<readonly object[], number>();

/**
 * Tokens of a messages array. The loop sends the same live array every step, one or two
 * messages longer each time, so the array keeps its running totals: the part whose
 * message objects are still the same (checked by identity, one comparison each) is not
 * summed again, and only new messages are counted (once each, see messageTokens). An
 * array that was spliced or had a message replaced is summed again from the change on.
 */
function messagesTokens(messages: readonly MessageParam[]): number {
  let prefix = prefixes.get(messages);
  if (prefix === undefined) {
    prefix = { refs: [], sums: [] };
    prefixes.set(messages, prefix);
  }
  const { refs, sums } = prefix;
  const same = Math.min(messages.length, refs.length);
  let i = 0;
  while (i < same && messages[i] === refs[i]) i++;
  refs.length = i;
  sums.length = i;
  let total = i === 0 ? 0 : sums[i - 1]!;
  for (; i < messages.length; i++) {
    const message = messages[i]!;
    total += messageTokens(message);
    refs.push(message);
    sums.push(total);
  }
  return total;
}

function toolsTokens(tools: readonly object[]): number {
  let tokens = toolLists.get(tools);
  if (tokens === undefined) {
    tokens = 0;
    for (const tool of tools) tokens += toolTokens(tool);
    toolLists.set(tools, tokens);
  }
  return tokens;
}

/** Input tokens of a whole request: system, tool definitions and messages. */
export function requestTokens(request: ModelRequest): number {
  let tokens = 0;
  const { system } = request;
  if (typeof system === 'string') tokens += textTokens(system.length) + MESSAGE_OVERHEAD;
  else if (system) for (const block of system) tokens += blockTokens(block);
  if (request.tools !== undefined) tokens += toolsTokens(request.tools);
  return tokens + messagesTokens(request.messages);
}
