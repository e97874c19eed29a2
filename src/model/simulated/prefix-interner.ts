import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

const OBJECT_PROTOTYPE = Object.prototype;

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === OBJECT_PROTOTYPE || prototype === null;
}

/**
 * Whether two values are the same JSON-like data: the same primitives (`Object.is`, so
 * -0 is not 0), arrays of the same length with equal items, and plain objects with the
 * same keys in the same order and equal values (a key holding `undefined` is not a
 * missing key). Anything else (a class instance, a Map) is equal only to itself. Stricter
 * than any reading of a message needs: a difference it sees that a reader would not only
 * costs a fresh reading.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== otherKeys[i]) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * Gives a request rebuilt from scratch (a parsed HTTP body, a thread's messages, a Chat
 * Completions request read back) the message objects of the previous request wherever
 * its leading messages are the same data, so the model's readings of that prefix (request
 * checks, token counts, progress; see transcript-prefix) resume instead of starting over.
 * Keyed on content alone, checked in full, never on who sent the request: a message that
 * differs in any value (compacted, repaired, rewritten) ends the shared prefix, and
 * everything from it on is read afresh. One per conversation endpoint (a run's model).
 */
export class PrefixInterner {
  #previous: readonly MessageParam[] = [];

  /**
   * Puts the previous request's objects in place of the leading messages equal to them
   * (the array must be the caller's own, e.g. just parsed); returns how many.
   */
  adopt(messages: MessageParam[]): number {
    const previous = this.#previous;
    const length = Math.min(previous.length, messages.length);
    let shared = 0;
    while (shared < length) {
      const before = previous[shared]!;
      if (before !== messages[shared] && !sameJson(before, messages[shared])) break;
      messages[shared] = before;
      shared += 1;
    }
    this.#previous = messages;
    return shared;
  }
}
