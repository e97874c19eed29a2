import * as crypto from 'node:crypto';
import type { MessageParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { textMemo } from '../../memo/text-memo.js';
import { canonicalCall, canonicalJson } from '../../scenarios/canonical-json.js';
import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { Guard, LoopContext } from '../guard.js';

export interface RepeatFingerprintOptions {
  /**
   * How many of the most recent calls a new call is compared with. 1 is the article's rule,
   * the same tool with the same arguments twice in a row; a wider window also blocks a call
   * identical to one a few calls back. @default 1
   */
  readonly window?: number;
}

export const REFLECTION_MESSAGE =
  'You just called the same tool with identical arguments. The result will be the same. Stop, reflect on why this is not working, and choose a different approach: different arguments, a different tool, or signal that you are stuck.';

/**
 * One-shot `crypto.hash` (Node >= 20.12) where there is one: about twice as fast as
 * building a Hash object per call. Read through the namespace, so older Node 20 loads.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * Digests remembered by their text: a blocked call is one the run made before, so its
 * digest usually was worked out already (in the reference scenario under `article`, about
 * one call in three is blocked).
 */
const digestOf = textMemo(sha256Hex, 1_000_000);

/** sha256 of the canonical JSON of `{name, input}`: key order does not matter. */
export function callFingerprint(name: string, input: unknown): string {
  return digestOf(canonicalCall(name, input));
}

/**
 * Whether two calls of one tool have the same canonical text, `canonicalCall(name, a) ===
 * canonicalCall(name, b)`, without writing either call's text: the texts differ only in their
 * inputs' canonical JSON, which for a frozen input (a record passed on from call to call)
 * is one remembered string, so equal inputs are one string compared by reference where
 * the calls' texts were two long new strings compared character by character. An
 * undefined input is left out of a call's text, so it matches only another undefined one.
 */
function sameArguments(a: unknown, b: unknown): boolean {
  // One value: inputs are never written once sent (ToolSpec.run), so one text.
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * Whether one of the `window` tool calls before `call` in the transcript, nearest first,
 * is the same call. A side-effecting call is compared only back to the nearest read-only
 * call before it: an agent that read the world after a write and then writes again is
 * checking before rewriting (a write that timed out, say), not repeating itself. Walked in
 * place, not gathered into a list first: a list per call (grown from empty) was most of
 * what the guard allocated.
 */
function repeatsRecent(
  messages: readonly MessageParam[],
  call: ToolUseBlock,
  window: number,
  inputOf: (block: { readonly id: string; readonly input: unknown }) => unknown,
  traits: LoopContext['toolTraits'],
): boolean {
  let compared = 0;
  let reached = false;
  // Looked up only when a read-only call could matter: a window of one never gets that far.
  let writes: boolean | undefined;
  for (let i = messages.length - 1; i >= 0 && compared < window; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (let j = message.content.length - 1; j >= 0 && compared < window; j--) {
      const block = message.content[j]!;
      if (block.type !== 'tool_use') continue;
      if (!reached) {
        reached = block.id === call.id;
        continue;
      }
      compared += 1;
      // A call of another tool is never the same call: no need to read its arguments.
      if (block.name === call.name && sameArguments(inputOf(block), call.input)) return true;
      if (compared >= window) return false;
      writes ??= traits(call.name)?.sideEffecting === true;
      if (writes && traits(block.name)?.sideEffecting === false) return false;
    }
  }
  return false;
}

/**
 * Refuses to execute a call identical to the one just before it (or, with a wider
 * `window`, to one of the last `window` calls) and answers it with a reflection message
 * instead. A read-only call between two identical side-effecting calls makes the second
 * one not a repeat: the agent checked the world before writing again. The last calls are
 * read from the transcript, so a run resumed in a new process (fresh guards) still knows them.
 *
 * @example
 * repeatFingerprint() // the article's rule: the same call twice in a row
 * repeatFingerprint({ window: 2 }) // also the same call two calls back
 */
export function repeatFingerprint({
  window = repeatFingerprintGuard.defaults.window,
}: RepeatFingerprintOptions = {}): Guard {
  /**
   * The calls this guard has read, in order: their ids, and their arguments as parsed
   * (the transcript keeps arguments sent as text as text). Two lists searched from the
   * newest end, not a Map: the calls looked up are the last few, found in a step or two,
   * where a Map cost more to fill (a new Map per run, growing) than all the lookups together.
   */
  const ids: string[] = [];
  const inputs: unknown[] = [];
  const inputOf = (block: { readonly id: string; readonly input: unknown }): unknown => {
    for (let k = ids.length - 1; k >= 0; k--) if (ids[k] === block.id) return inputs[k];
    return block.input;
  };
  return {
    name: 'repeat',
    beforeToolCall(call, ctx) {
      // Calls are compared by their canonical text, equal exactly when their digests are;
      // the digest is worked out only for a call that is blocked, which is rare.
      const repeated = repeatsRecent(ctx.messages, call, window, inputOf, ctx.toolTraits);
      ids.push(call.id);
      // Its arguments as read, kept by reference: tool handlers never write their input (ToolSpec.run).
      inputs.push(call.input);
      if (!repeated) return undefined;
      ctx.emit({
        type: 'agent.repeat.blocked',
        at: ctx.clock.now(),
        tool: call.name,
        fingerprint: callFingerprint(call.name, call.input),
      });
      return { kind: 'answer', content: REFLECTION_MESSAGE, isError: true };
    },
  };
}

/** Repeat fingerprinting in an arm: the article's rule by default (window 1). */
export const repeatFingerprintGuard = defineGuard({
  name: 'repeat',
  settings: z.strictObject({ window: z.number().int().min(1).default(1) }),
  events: ['agent.repeat.blocked'],
  build: (settings) => repeatFingerprint(settings),
});
