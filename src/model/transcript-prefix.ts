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
    this.#remove(at);
    this.#putFirst(messages, value);
    return value;
  }

  set(messages: readonly MessageParam[], value: V): void {
    const at = this.#keys.indexOf(messages);
    if (at !== -1) this.#remove(at);
    this.#putFirst(messages, value);
    if (this.#keys.length > KEPT_TRANSCRIPTS) this.#remove(KEPT_TRANSCRIPTS);
  }

  delete(messages: readonly MessageParam[]): void {
    const at = this.#keys.indexOf(messages);
    if (at !== -1) this.#remove(at);
  }

  #putFirst(messages: readonly MessageParam[], value: V): void {
    this.#keys.unshift(messages);
    this.#values.unshift(value);
  }

  #remove(at: number): void {
    this.#keys.splice(at, 1);
    this.#values.splice(at, 1);
  }
}
