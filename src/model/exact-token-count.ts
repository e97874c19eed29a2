import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from './model-client.js';
import { withoutCacheControl } from './token-estimate.js';

/** The encoder, loaded on first use: its ranks are ~1 MB that sweeps without it never need. */
type Encoder = { encode(text: string): number[] };
let encoder: Promise<Encoder> | null = null;

/**
 * The cl100k_base encoding (shipped in the js-tiktoken package): not Claude's tokenizer,
 * which is not public, but a real BPE count, as a proxy for what the estimator guesses.
 */
export function loadCl100k(): Promise<Encoder> {
  encoder ??= (async () => {
    const [{ Tiktoken }, { default: ranks }] = await Promise.all([
      import('js-tiktoken/lite'),
      import('js-tiktoken/ranks/cl100k_base'),
    ]);
    return new Tiktoken(ranks);
  })();
  return encoder;
}

const MESSAGE_OVERHEAD = 4;
const TOOL_OVERHEAD = 8;
const perMessage = new WeakMap<object, number>();
const perTool = new WeakMap<object, number>();
/** System prompts by text: a run sends the same few again and again. */
const perSystem = new Map<string, number>();

function resultText(block: ToolResultBlockParam): string {
  const { content } = block;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Encoded tokens of one block, with the same framing as the estimator (see token-estimate.ts). */
export function exactBlockTokens(encoding: Encoder, block: ContentBlockParam | { type: string }): number {
  switch (block.type) {
    case 'text':
      return encoding.encode((block as { text: string }).text).length + 2;
    case 'tool_use': {
      const use = block as { name: string; input: unknown };
      return encoding.encode(use.name + JSON.stringify(use.input ?? {})).length + 8;
    }
    case 'tool_result':
      return encoding.encode(resultText(block as ToolResultBlockParam)).length + 6;
    default:
      return encoding.encode(withoutCacheControl(block)).length + 2;
  }
}

/** Encoded tokens of one message; cached per message object, as the estimator is. */
export function exactMessageTokens(encoding: Encoder, message: MessageParam): number {
  const cached = perMessage.get(message);
  if (cached !== undefined) return cached;
  let tokens = MESSAGE_OVERHEAD;
  if (typeof message.content === 'string') tokens += encoding.encode(message.content).length;
  else for (const block of message.content) tokens += exactBlockTokens(encoding, block);
  perMessage.set(message, tokens);
  return tokens;
}

/**
 * Input tokens of a whole request by cl100k_base: system, tool definitions and messages,
 * each message encoded once. Needs `loadCl100k()` first.
 *
 * @example
 * const encoding = await loadCl100k();
 * exactRequestTokens(encoding, request) // e.g. 12,031 where the estimate says 11,402
 */
export function exactRequestTokens(encoding: Encoder, request: ModelRequest): number {
  let tokens = 0;
  const { system } = request;
  if (typeof system === 'string') {
    let cached = perSystem.get(system);
    if (cached === undefined) {
      cached = encoding.encode(system).length + MESSAGE_OVERHEAD;
      if (perSystem.size > 64) perSystem.clear();
      perSystem.set(system, cached);
    }
    tokens += cached;
  } else if (system) for (const block of system) tokens += exactBlockTokens(encoding, block);
  for (const tool of request.tools ?? []) {
    let cached = perTool.get(tool);
    if (cached === undefined) {
      cached = encoding.encode(withoutCacheControl(tool)).length + TOOL_OVERHEAD;
      perTool.set(tool, cached);
    }
    tokens += cached;
  }
  for (const message of request.messages) tokens += exactMessageTokens(encoding, message);
  return tokens;
}
