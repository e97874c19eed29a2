import type { Guard } from '../guard.js';

/**
 * Concurrency: the concurrency-safe calls of one turn (tools that declare
 * `concurrencySafe`, i.e. reads) run together, so in virtual time the group costs its
 * slowest call, not the sum; side-effecting calls run alone, in order. Results always go
 * back in request order, and every decision (faults, retries) is the same as serially.
 *
 * @example
 * concurrency()
 */
export function concurrency(): Guard {
  return { name: 'concurrency', concurrentTools: true };
}
