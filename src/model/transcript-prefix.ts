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
