/** The faults a flaky tool can inject, each with its own probability per execution. */
export const FAULT_KINDS = [
  'timeout',
  'connection_refused',
  'rate_limit',
  'server_error',
  'malformed_json',
  'partial_write',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type FaultRates = Partial<Record<FaultKind, number>>;

export interface FaultProfile {
  /** Rates for every tool of the scenario. */
  readonly rates: FaultRates;
  /** Per-tool rates that replace `rates` for that tool. */
  readonly tools: Readonly<Record<string, FaultRates>>;
  /** `retry-after` a 429 carries, in ms. */
  readonly retryAfterMs: number;
  /** How long a timed-out call hangs before failing, in ms. */
  readonly timeoutMs: number;
}

export const NO_FAULTS: FaultProfile = Object.freeze({ rates: {}, tools: {}, retryAfterMs: 1000, timeoutMs: 10_000 });

/**
 * Cumulative thresholds in the fixed order of FAULT_KINDS, so one uniform draw picks at
 * most one fault and the same draw picks the same fault in every arm.
 */
export function faultThresholds(rates: FaultRates): ReadonlyArray<readonly [FaultKind, number]> {
  let total = 0;
  const thresholds: Array<readonly [FaultKind, number]> = [];
  for (const kind of FAULT_KINDS) {
    const rate = rates[kind] ?? 0;
    if (rate <= 0) continue;
    total += rate;
    thresholds.push([kind, total]);
  }
  if (total > 1 + 1e-9) throw new RangeError(`fault rates add up to ${total}, more than 1`);
  return thresholds;
}
