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
 * Readings kept per transcript array, as a WeakMap keeps them, with the last array
 * looked up first. A run sends its one live array call after call and several readers
 * look it up on every call (the request check, the token count twice, the model's
 * progress), where a WeakMap lookup cost about as much as the reading it found. The last
 * entry is in the WeakMap too, so the slot only answers faster; it holds one array and
 * its reading alive until another array is read (one entry: bounded).
 */
export class TranscriptReadings<V> {
  readonly #all = new WeakMap<readonly MessageParam[], V>();
  #lastKey: readonly MessageParam[] | null = null;
  #lastValue: V | undefined = undefined;

  get(messages: readonly MessageParam[]): V | undefined {
    if (messages === this.#lastKey) return this.#lastValue;
    const value = this.#all.get(messages);
    if (value !== undefined) this.#remember(messages, value);
    return value;
  }

  set(messages: readonly MessageParam[], value: V): void {
    this.#all.set(messages, value);
    this.#remember(messages, value);
  }

  delete(messages: readonly MessageParam[]): void {
    this.#all.delete(messages);
    if (messages === this.#lastKey) this.#remember(null, undefined);
  }

  #remember(messages: readonly MessageParam[] | null, value: V | undefined): void {
    this.#lastKey = messages;
    this.#lastValue = value;
  }
}
