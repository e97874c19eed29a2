import type { SweepCell } from './read-sweep.js';

/** What a test says about a cell's runs beyond its metric columns. */
export interface RunShape {
  /** Runs that succeeded: the first ones. */
  readonly successes: number;
  /** Runs that escalated: the ones after the successes. @default 0 */
  readonly escalated?: number;
  /** Escalations are the right outcome. @default false */
  readonly impossible?: boolean;
  /** Member of run i. @default every run member 0 (no ensemble) */
  readonly member?: (i: number) => number;
  /** First run seed; runs use base, base+1, ... @default 1 */
  readonly base?: number;
}

/** The per-run columns of a test cell of `n` runs (seeds, members, right outcome, harmful) matching its counts, and no guard events. */
export function runColumns(
  n: number,
  shape: RunShape,
): Pick<SweepCell, 'seeds' | 'members' | 'right' | 'harmful' | 'events' | 'costUsd'> {
  const escalated = shape.escalated ?? 0;
  const right = (i: number) => i < shape.successes || (shape.impossible === true && i < shape.successes + escalated);
  return {
    seeds: Float64Array.from({ length: n }, (_, i) => (shape.base ?? 1) + i),
    members: Int32Array.from({ length: n }, (_, i) => shape.member?.(i) ?? 0),
    right: Uint8Array.from({ length: n }, (_, i) => (right(i) ? 1 : 0)),
    harmful: new Uint8Array(n),
    events: {},
    // As results written before runs recorded their cost: priced from the tokens.
    costUsd: null,
  };
}
