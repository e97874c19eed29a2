import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Whether `messages` starts with exactly the message objects of `seen` and goes on past
 * them. Readings of a transcript (request checks, the model's progress, token counts)
 * are kept per transcript array with the messages they covered: the loop sends its live
 * transcript and only appends to it (or replaces its last message), so the next request
 * resumes a reading instead of walking the whole run again. Messages are never edited in
 * place, so the same objects mean the same content; anything else is read afresh.
 */
export function extendsPrefix(seen: readonly MessageParam[], messages: readonly MessageParam[]): boolean {
  return seen.length < messages.length && sharedPrefix(seen, messages) === seen.length;
}

/** How many leading messages the two arrays share (the same objects). */
export function sharedPrefix(seen: readonly MessageParam[], messages: readonly MessageParam[]): number {
  const length = Math.min(seen.length, messages.length);
  let i = 0;
  while (i < length && seen[i] === messages[i]) i++;
  return i;
}

/**
 * How many transcript arrays keep their readings: one per run in flight in the process
 * (a sweep runs a few at once), with room to spare. An array beyond them is read afresh,
 * which gives the same reading, only slower.
 */
export const KEPT_TRANSCRIPTS = 16;

/**
 * Readings kept per transcript array, for the last few arrays read, the last one first. A
 * run sends its one live array call after call and several readers look it up on every
 * call (the request check, the token count twice, the model's progress), where a WeakMap
 * lookup cost about as much as the reading it found, and a WeakMap entry per run (three
 * readers) cost more again to add and to clear in the GC than a short list of recent
 * arrays. Holds at most KEPT_TRANSCRIPTS arrays and their readings alive: bounded.
 */
export class TranscriptReadings<V> {
  /** Most recently read or set first; `values[i]` is the reading of `keys[i]`. */
  readonly #keys: (readonly MessageParam[])[] = [];
  readonly #values: V[] = [];

  get(messages: readonly MessageParam[]): V | undefined {
    if (this.#keys[0] === messages) return this.#values[0];
    const at = this.#keys.indexOf(messages);
    if (at === -1) return undefined;
    const value = this.#values[at]!;
    this.#putFirst(at, messages, value);
    return value;
  }

  /**
   * The reading of this array, or else of the most recent array that began with the same
   * first message object, handed over to this array (the other one is read afresh if sent
   * again). A transcript rebuilt for every request (an SDK client's parsed body, a thread,
   * a Chat Completions request read back) is a new array each time; once its unchanged
   * messages are the earlier request's objects (see PrefixInterner), the earlier reading is
   * found here. Only a candidate: the reader still checks that what the reading covered is
   * a prefix of `messages`, message by message.
   */
  lookup(messages: readonly MessageParam[]): V | undefined {
    const found = this.get(messages);
    if (found !== undefined || messages.length === 0) return found;
    const first = messages[0];
    const keys = this.#keys;
    for (let at = 0; at < keys.length; at++) {
      if (keys[at]![0] !== first) continue;
      const value = this.#values[at]!;
      this.#putFirst(at, messages, value);
      return value;
    }
    return undefined;
  }

  set(messages: readonly MessageParam[], value: V): void {
    const at = this.#keys.indexOf(messages);
    // A new array takes the place of the least recent one once the list is full.
    this.#putFirst(at !== -1 ? at : Math.min(this.#keys.length, KEPT_TRANSCRIPTS - 1), messages, value);
  }

  delete(messages: readonly MessageParam[]): void {
    const keys = this.#keys;
    const values = this.#values;
    const at = keys.indexOf(messages);
    if (at === -1) return;
    for (let i = at; i < keys.length - 1; i++) {
      keys[i] = keys[i + 1]!;
      values[i] = values[i + 1]!;
    }
    keys.length -= 1;
    values.length -= 1;
  }

  /**
   * The entry first, the ones before place `from` one place down (the one at `from` is
   * overwritten, or the list grows by one when `from` is its length). Moved by hand:
   * unshift and splice are calls into the runtime, which cost more than the moves.
   */
  #putFirst(from: number, messages: readonly MessageParam[], value: V): void {
    const keys = this.#keys;
    const values = this.#values;
    for (let i = from; i > 0; i--) {
      keys[i] = keys[i - 1]!;
      values[i] = values[i - 1]!;
    }
    keys[0] = messages;
    values[0] = value;
  }
}
