import type { ContentBlockParam, MessageParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from './model-client.js';
import { jsonLength } from './json-length.js';
import { extendsPrefix, TranscriptReadings } from './transcript-prefix.js';

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
/** Framing tokens of each message, counted with its first block. */
export const MESSAGE_OVERHEAD = 4;
const TOOL_OVERHEAD = 8;

const perTool = new WeakMap<object, number>();
/** The last tool_use block measured and its size (blocks are never edited, so the size stands). */
let lastToolUse: object | null = null;
let lastToolUseTokens = 0;

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
      // A call's size is its arguments' JSON (a whole record, often), added up rather than
      // written out again (see json-length). The block a reply was just measured with is
      // counted again in the next request, with no other call measured in between:
      // remembering the last one is enough, and far cheaper than a WeakMap entry per block.
      if (lastToolUse === block) return lastToolUseTokens;
      const use = block as { name: string; input: unknown };
      const tokens = textTokens(use.name.length + jsonLength(use.input ?? {})!) + 8;
      lastToolUse = block;
      lastToolUseTokens = tokens;
      return tokens;
    }
    case 'tool_result':
      return textTokens(resultText(block as ToolResultBlockParam).length) + 6;
    default:
      return textTokens(withoutCacheControl(block).length) + 2;
  }
}

/** A breakpoint is an instruction to the API, not prompt text: it costs no tokens. */
function dropCacheControl(key: string, value: unknown): unknown {
  return key === 'cache_control' ? undefined : value;
}

/** The JSON of a block or a tool definition as the model reads it: without its cache breakpoint. */
export function withoutCacheControl(value: object): string {
  return 'cache_control' in value ? JSON.stringify(value, dropCacheControl) : JSON.stringify(value);
}

/**
 * Tokens of one message. Not remembered per message: requests count their transcript
 * through transcriptTokens, which counts each message about once, and a WeakMap entry
 * per message (set once, read once) cost more than the count, mostly in the GC.
 */
export function messageTokens(message: MessageParam | { content: string | readonly { type: string }[] }): number {
  let tokens = MESSAGE_OVERHEAD;
  if (typeof message.content === 'string') tokens += textTokens(message.content.length);
  else for (const block of message.content) tokens += blockTokens(block as ContentBlockParam);
  return tokens;
}

/** Tokens of one tool definition. */
export function toolTokens(tool: Tool | object): number {
  const cached = perTool.get(tool);
  if (cached !== undefined) return cached;
  const tokens = textTokens(withoutCacheControl(tool).length) + TOOL_OVERHEAD;
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

/** Tokens of a system prompt written as one string (as blocks, each block counts as in a message). */
export function systemTextTokens(system: string): number {
  return textTokens(system.length) + MESSAGE_OVERHEAD;
}

/** Input tokens of a whole request: system, tool definitions and messages. */
export function requestTokens(request: ModelRequest): number {
  let tokens = 0;
  const { system } = request;
  if (typeof system === 'string') tokens += systemTextTokens(system);
  else if (system) for (const block of system) tokens += blockTokens(block);
  if (request.tools !== undefined) tokens += toolsTokens(request.tools);
  return tokens + transcriptTokens(request.messages);
}

/**
 * Tokens of a transcript array's messages before its last one, with the messages counted;
 * and the last message last counted with its tokens: a request is counted twice (the
 * context-window check, then usage), and messages are never edited in place.
 */
const counted = new TranscriptReadings<{
  readonly seen: MessageParam[];
  tokens: number;
  last: MessageParam | null;
  lastTokens: number;
}>();

/**
 * Tokens of all messages, resumed from the last count of the same array (see
 * transcript-prefix): the loop sends its live transcript, so a step counts only what is
 * new. The last message is counted apart, as a guard may replace it (a message object
 * counted last time is not counted again).
 */
function transcriptTokens(messages: readonly MessageParam[]): number {
  if (messages.length === 0) return 0;
  const known = counted.lookup(messages);
  const resume = known !== undefined && extendsPrefix(known.seen, messages);
  // A resumed entry grows in place: it is the one being replaced.
  const entry = resume ? known : { seen: [], tokens: 0, last: null, lastTokens: 0 };
  const { seen } = entry;
  for (let i = seen.length; i < messages.length - 1; i++) {
    entry.tokens += messageTokens(messages[i]!);
    seen.push(messages[i]!);
  }
  if (!resume) counted.set(messages, entry);
  const last = messages[messages.length - 1]!;
  if (entry.last !== last) {
    entry.last = last;
    entry.lastTokens = messageTokens(last);
  }
  return entry.tokens + entry.lastTokens;
}
