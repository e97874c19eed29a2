/**
 * The faults a tool execution can report having met (a host that injects faults names them;
 * the loop only reports them), as counted on a run. New kinds go at the end: the
 * order of the rate faults fixes which fault a draw picks, so it must never change.
 */
export const FAULT_KINDS = [
  'timeout',
  'connection_refused',
  'rate_limit',
  'server_error',
  'malformed_json',
  'partial_write',
  'unauthorized',
] as const;
/**
 * A fault a tool execution met, as counted on a run (`faults` in runs.jsonl).
 *
 * @example
 * const fault: FaultKind = 'timeout';
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Faults met, by kind: every kind present, in FAULT_KINDS order (a run's `faults`, a tool host's count). */
export type FaultCounts = Record<FaultKind, number>;

/**
 * No fault yet, every kind present: every run's counts share one shape, and counting is an
 * update, not a property added in whatever order the faults come. A literal, the cheapest
 * way to make an object (the type insists on every kind; a test pins the order).
 */
export function noFaults(): FaultCounts {
  return {
    timeout: 0,
    connection_refused: 0,
    rate_limit: 0,
    server_error: 0,
    malformed_json: 0,
    partial_write: 0,
    unauthorized: 0,
  };
}
