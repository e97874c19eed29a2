import * as crypto from 'node:crypto';
import type { MessageParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { canonicalCall } from '../../scenarios/canonical-json.js';
import { textMemo } from '../../memo/text-memo.js';
import type { Guard } from '../guard.js';

export interface RepeatFingerprintOptions {
  /** How many of the most recent calls a new call is compared with. @default 2 */
  readonly window?: number;
}

export const REFLECTION_MESSAGE =
  'You just called the same tool with identical arguments. The result will be the same. Stop, reflect on why this is not working, and choose a different approach: different arguments, a different tool, or signal that you are stuck.';

/**
 * One-shot `crypto.hash` (Node >= 20.12) where there is one: about twice as fast as
 * building a Hash object per call. Read through the namespace, so older Node 20 loads.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** A run repeats its calls, and a sweep its runs: digests are remembered by their text. */
const digestOf = textMemo(sha256Hex, 1_000_000);

/** The identity of a call: the canonical JSON of `{name, input}`, so key order does not matter. */
const callText = canonicalCall;

/** sha256 of the canonical JSON of `{name, input}`: key order does not matter. */
export function callFingerprint(name: string, input: unknown): string {
  return digestOf(callText(name, input));
}

/** The tool calls before call `id` in the transcript, nearest first, at most `limit`. */
function callsBefore(messages: readonly MessageParam[], id: string, limit: number): ToolUseBlock[] {
  const found: ToolUseBlock[] = [];
  let reached = false;
  for (let i = messages.length - 1; i >= 0 && found.length < limit; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (let j = message.content.length - 1; j >= 0 && found.length < limit; j--) {
      const block = message.content[j]!;
      if (block.type !== 'tool_use') continue;
      if (reached) found.push(block as ToolUseBlock);
      else if (block.id === id) reached = true;
    }
  }
  return found;
}

/**
 * Refuses to execute a call identical to one of the last `window` calls and answers it
 * with a reflection message instead. The last calls are read from the transcript, so a
 * run resumed in a new process (fresh guards) still knows them.
 *
 * @example
 * repeatFingerprint({ window: 2 })
 */
export function repeatFingerprint({ window = 2 }: RepeatFingerprintOptions = {}): Guard {
  /** The calls this guard has read, by id, as canonical text of their arguments as parsed. */
  const seen = new Map<string, string>();
  return {
    name: 'repeat',
    beforeToolCall(call, ctx) {
      // Calls are compared by their canonical text, equal exactly when their digests are;
      // the digest is worked out only for a call that is blocked, which is rare, rather
      // than looked up for every call.
      const text = callText(call.name, call.input);
      const repeated = callsBefore(ctx.messages, call.id, window).some((before) => (seen.get(before.id) ?? callText(before.name, before.input)) === text);
      seen.set(call.id, text);
      if (!repeated) return undefined;
      ctx.emit({ type: 'agent.repeat.blocked', at: ctx.clock.now(), tool: call.name, fingerprint: digestOf(text) });
      return { kind: 'answer', content: REFLECTION_MESSAGE, isError: true };
    },
  };
}
