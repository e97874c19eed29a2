import type { MaybePromise } from './maybe-promise.js';

/** The value a synchronous layer answered with; a promise where none belongs fails the test. */
export function answeredNow<T>(value: MaybePromise<T>): T {
  if (value instanceof Promise) throw new Error('expected a synchronous answer, got a promise');
  return value;
}
