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
