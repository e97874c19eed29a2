import { FAULT_KINDS, type FaultKind } from '../tools/tool-fault.js';
import type { ToolDataFaults } from './data/index.js';

/** `unauthorized` is scheduled (`unauthorizedAfter`), not drawn. */
export type RateFaultKind = Exclude<FaultKind, 'unauthorized'>;

/** The faults drawn with a probability per execution, in draw order. */
export const RATE_FAULT_KINDS: readonly RateFaultKind[] = FAULT_KINDS.filter(
  (kind): kind is RateFaultKind => kind !== 'unauthorized',
);

export type FaultRates = Partial<Record<RateFaultKind, number>>;

export interface FaultProfile {
  /** Rates for every tool of the scenario. */
  readonly rates: FaultRates;
  /** Per-tool rates that replace `rates` for that tool. */
  readonly tools: Readonly<Record<string, FaultRates>>;
  /**
   * Per tool: from this 0-based execution index on, every execution answers HTTP 401
   * (a credential revoked mid-task) without running the handler.
   */
  readonly unauthorizedAfter: Readonly<Record<string, number>>;
  /** `retry-after` a 429 carries, in ms. */
  readonly retryAfterMs: number;
  /** How long a timed-out call hangs before failing, in ms. */
  readonly timeoutMs: number;
  /** Per tool: the faults in the data of its successful answers. */
  readonly data: Readonly<Record<string, ToolDataFaults>>;
}

export const NO_FAULTS: FaultProfile = Object.freeze({
  rates: {},
  tools: {},
  unauthorizedAfter: {},
  retryAfterMs: 1000,
  timeoutMs: 10_000,
  data: {},
});

/**
 * Cumulative thresholds in the fixed order of RATE_FAULT_KINDS, so one uniform draw picks
 * at most one fault and the same draw picks the same fault in every arm.
 */
export function faultThresholds(rates: FaultRates): ReadonlyArray<readonly [RateFaultKind, number]> {
  // Every run wraps each tool anew; the rates are the scenario's, so their thresholds are made once.
  let known = thresholdsByRates.get(rates);
  if (known === undefined) {
    known = thresholdsOf(rates);
    thresholdsByRates.set(rates, known);
  }
  return known;
}

const thresholdsByRates = new WeakMap<FaultRates, ReadonlyArray<readonly [RateFaultKind, number]>>();

function thresholdsOf(rates: FaultRates): ReadonlyArray<readonly [RateFaultKind, number]> {
  let total = 0;
  const thresholds: Array<readonly [RateFaultKind, number]> = [];
  for (const kind of RATE_FAULT_KINDS) {
    const rate = rates[kind] ?? 0;
    if (rate <= 0) continue;
    total += rate;
    thresholds.push([kind, total]);
  }
  if (total > 1 + 1e-9) throw new RangeError(`fault rates add up to ${total}, more than 1`);
  return thresholds;
}
