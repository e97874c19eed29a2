import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
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

/** Concurrency in an arm: no settings. */
export const concurrencyGuard = defineGuard({
  name: 'concurrency',
  settings: z.strictObject({}),
  build: () => concurrency(),
});
