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

/**
 * The faults in the data a tool answers with: the call succeeds (HTTP 200) and the answer
 * is wrong. Counted apart from the transport faults (`data_faults` in runs.jsonl, present
 * only where a scenario declares them), so the records of other scenarios keep their bytes.
 * The order is the draw order of a tool's data faults: new kinds go at the end.
 *
 * @example
 * DATA_FAULT_KINDS.includes('stale_read'); // true
 */
export const DATA_FAULT_KINDS = [
  'injected_instructions',
  'stale_read',
  'wrong_entity',
  'empty_result',
  'truncated_page',
  'schema_drift',
] as const;

/**
 * A fault in the content of a successful answer.
 *
 * @example
 * const fault: DataFaultKind = 'injected_instructions';
 */
export type DataFaultKind = (typeof DATA_FAULT_KINDS)[number];

/** Data faults met, by kind: every kind present, in DATA_FAULT_KINDS order. */
export type DataFaultCounts = Record<DataFaultKind, number>;

/** Any fault a tool execution can report: in the transport, or in the data of an answer. */
export type MetFault = FaultKind | DataFaultKind;

const DATA_KINDS: ReadonlySet<string> = new Set(DATA_FAULT_KINDS);

/** Whether a fault met is one in the data (counted in `data_faults`), not in the transport. */
export function isDataFault(fault: MetFault): fault is DataFaultKind {
  return DATA_KINDS.has(fault);
}

/** No data fault yet, every kind present. */
export function noDataFaults(): DataFaultCounts {
  return {
    injected_instructions: 0,
    stale_read: 0,
    wrong_entity: 0,
    empty_result: 0,
    truncated_page: 0,
    schema_drift: 0,
  };
}
