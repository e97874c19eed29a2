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
const perToolUse = new WeakMap<object, number>();

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
      // A call's size is its arguments' JSON; the same block is counted as a reply's
      // output and again in every later request, so it is measured once.
      let tokens = perToolUse.get(block);
      if (tokens === undefined) {
        const use = block as { name: string; input: unknown };
        tokens = textTokens(use.name.length + JSON.stringify(use.input ?? {}).length) + 8;
        perToolUse.set(block, tokens);
      }
      return tokens;
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

const toolLists = new WeakMap<readonly object[], number>();

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
  // Each message is counted once (messageTokens caches it): a step costs one look-up per message.
  for (const message of request.messages) tokens += messageTokens(message);
  return tokens;
}
